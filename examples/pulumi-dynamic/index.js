"use strict";
// A Pulumi program whose resource is served by a dynamic provider
// (pulumi.dynamic.Resource): a File is a file on disk, written by create
// and update and removed by delete. The provider takes its settings from
// the stack config the way a dynamic provider may: configure() reads
// `greeting` and the secret `token` from the config it is configured with,
// and create() and update() read `greeting` again through
// `new pulumi.Config()`. The file's content is derived from all three, so
// a test can tell that each reached the provider; the secret itself is
// never written, only a digest of it.
//
// Config: greeting, token (secret), message (the resource's input; an edit
// of it updates the file), file (the file's name, relative to the program;
// out.txt if unset).
const pulumi = require("@pulumi/pulumi");
const path = require("path");

// render is the file's content for a provider configured with cfg. It
// loads the SDK when it runs, in the provider's process, rather than
// capturing the program's: a captured pulumi.Config carries a copy of the
// whole stack config, the secret in the clear, inside the serialised
// provider; this one reads the config the provider was started with.
function render(cfg, inputs) {
    const crypto = require("crypto");
    const sdk = require("@pulumi/pulumi");
    const digest = crypto.createHash("sha256").update(cfg.token).digest("hex").slice(0, 12);
    const fromConfig = new sdk.Config().require("greeting");
    return [
        `greeting: ${cfg.greeting}`,
        `message: ${inputs.message}`,
        `token: sha256:${digest}`,
        `pulumi.Config greeting: ${fromConfig}`,
        "",
    ].join("\n");
}

const fileProvider = {
    async configure(req) {
        this.greeting = req.config.require("greeting");
        this.token = req.config.require("token");
    },
    async diff(id, olds, news) {
        const moved = olds.path !== news.path;
        return {
            changes: moved || olds.message !== news.message,
            replaces: moved ? ["path"] : [],
            deleteBeforeReplace: true,
        };
    },
    async create(inputs) {
        const content = render(this, inputs);
        require("fs").writeFileSync(inputs.path, content);
        return { id: inputs.path, outs: { path: inputs.path, message: inputs.message, content } };
    },
    async update(id, olds, news) {
        const content = render(this, news);
        require("fs").writeFileSync(news.path, content);
        return { outs: { path: news.path, message: news.message, content } };
    },
    async delete(id) {
        require("fs").rmSync(id, { force: true });
    },
};

class File extends pulumi.dynamic.Resource {
    constructor(name, args, opts) {
        super(fileProvider, name, { content: undefined, ...args }, opts);
    }
}

const config = new pulumi.Config();
const file = new File("note", {
    path: path.resolve(config.get("file") || "out.txt"),
    message: config.require("message"),
});

exports.path = file.path;
exports.content = file.content;
