"use strict";
// Transforms change what a program registers before the engine sees it.
// The stack-wide transform (pulumi.runtime.registerResourceTransform)
// gives every File a banner line and mode 0600; the component's transform
// (the transforms option) narrows every Integer under the component to
// the range 1..9 and sets its seed. The outputs show both applied.
const pulumi = require("@pulumi/pulumi");

const BANNER = "# managed by js-transforms (edited)\n";

class Integer extends pulumi.CustomResource {
    constructor(name, args, opts) {
        super("plinth:random:Integer", name, { result: undefined, ...args }, opts);
    }
}

class File extends pulumi.CustomResource {
    constructor(name, args, opts) {
        super("plinth:fs:File", name, { size: undefined, permissions: undefined, ...args }, opts);
    }
}

pulumi.runtime.registerResourceTransform(args => {
    if (args.type !== "plinth:fs:File") {
        return undefined;
    }
    return {
        props: { ...args.props, content: BANNER + args.props.content, permissions: "0600" },
        opts: args.opts,
    };
});

class Dice extends pulumi.ComponentResource {
    constructor(name, count, opts) {
        super("corpus:index:Dice", name, {}, opts);
        this.values = [];
        for (let i = 0; i < count; i++) {
            const die = new Integer(`${name}-${i}`, { min: 0, max: 1000000, seed: "unset" }, { parent: this });
            this.values.push(die.result);
        }
        this.registerOutputs({ values: this.values });
    }
}

const narrow = args => {
    if (args.type !== "plinth:random:Integer") {
        return undefined;
    }
    return { props: { ...args.props, min: 1, max: 9, seed: `${args.name}/v2` }, opts: args.opts };
};

const dice = new Dice("dice", 2, { transforms: [narrow] });
const wide = new Integer("wide", { min: 100, max: 200, seed: "wide" });
const note = new File("note", { path: "out/note.txt", content: pulumi.interpolate`dice ${dice.values[0]} ${dice.values[1]}\n` });

exports.dice = dice.values;
exports.wide = wide.result;
exports.noteSize = note.size;
exports.noteMode = note.permissions;
