"use strict";
// Component resources of the program's own: a Site holds a seeded Integer
// and one File per page, and an Env holds two Sites, so the components
// nest two deep. Every child is parented to its component, and each
// component registers its outputs.
const pulumi = require("@pulumi/pulumi");

class Integer extends pulumi.CustomResource {
    constructor(name, args, opts) {
        super("plinth:random:Integer", name, { result: undefined, ...args }, opts);
    }
}

class File extends pulumi.CustomResource {
    constructor(name, args, opts) {
        super("plinth:fs:File", name, { sha256: undefined, size: undefined, ...args }, opts);
    }
}

class Site extends pulumi.ComponentResource {
    constructor(name, args, opts) {
        super("corpus:index:Site", name, {}, opts);
        this.port = new Integer(`${name}-port`, { min: 8000, max: 8999, seed: name }, { parent: this }).result;
        const files = args.pages.map(page => new File(`${name}-${page}`, {
            path: `out/${name}/${page}.html`,
            content: pulumi.interpolate`<h1>${args.title}: ${page}</h1> on port ${this.port}\n`,
        }, { parent: this }));
        this.bytes = pulumi.all(files.map(f => f.size)).apply(sizes => sizes.reduce((a, b) => a + b, 0));
        this.registerOutputs({ port: this.port, bytes: this.bytes });
    }
}

class Env extends pulumi.ComponentResource {
    constructor(name, args, opts) {
        super("corpus:index:Env", name, {}, opts);
        this.sites = args.sites.map(s => new Site(`${name}-${s.name}`, s, { parent: this }));
        this.registerOutputs({ ports: this.sites.map(s => s.port) });
    }
}

const prod = new Env("prod", { sites: [
    { name: "www", title: "Welcome!", pages: ["index", "about", "contact"] },
    { name: "docs", title: "Docs", pages: ["index"] },
] });

exports.ports = prod.sites.map(s => s.port);
exports.bytes = prod.sites.map(s => s.bytes);
