"use strict";
// Resource hooks (pulumi.ResourceHook) before and after create, update
// and delete append a line to hooks.log in the program's directory. A
// hook runs after the program has registered its resources, so a run of
// the program cannot see its own hooks: each run exports, sorted, the
// lines the runs before it wrote. Hooks do not run in previews (none asks
// to run on dry runs), so the edit's outputs are exactly the up's hooks.
const fs = require("fs");
const pulumi = require("@pulumi/pulumi");

const LOG = "hooks.log";
const seen = fs.existsSync(LOG) ? fs.readFileSync(LOG, "utf8").split("\n").filter(l => l !== "").sort() : [];

class Integer extends pulumi.CustomResource {
    constructor(name, args, opts) {
        super("plinth:random:Integer", name, { result: undefined, ...args }, opts);
    }
}

class File extends pulumi.CustomResource {
    constructor(name, args, opts) {
        super("plinth:fs:File", name, { size: undefined, ...args }, opts);
    }
}

// hook logs one line: the hook's name, the resource's, and what it saw.
function hook(name, show) {
    return new pulumi.ResourceHook(name, args => {
        fs.appendFileSync(LOG, `${name} ${args.name} ${show(args)}\n`);
    });
}

// sorted is an object's keys and values, in key order.
function sorted(o) {
    return Object.keys(o).sort().map(k => `${k}:${JSON.stringify(o[k])}`).join(",");
}

const hooks = {
    beforeCreate: [hook("before-create", a => `in=${sorted(a.newInputs)}`)],
    afterCreate: [hook("after-create", a => `out=${a.newOutputs.result ?? a.newOutputs.size}`)],
    beforeUpdate: [hook("before-update", a => `old=${a.oldInputs.content.length} new=${a.newInputs.content.length}`)],
    afterUpdate: [hook("after-update", a => `out=${a.newOutputs.size}`)],
    beforeDelete: [hook("before-delete", a => `old=${a.oldOutputs.result ?? a.oldOutputs.size}`)],
    afterDelete: [hook("after-delete", a => `id=${a.id}`)],
};

const num = new Integer("num", { min: 1, max: 100, seed: "hooks" }, { hooks });
const extra = new Integer("extra", { min: 1, max: 100, seed: "extra" }, { hooks });
const note = new File("note", { path: "out/note.txt", content: pulumi.interpolate`num ${num.result}\n` }, { hooks });

exports.seen = seen;
exports.num = num.result;
exports.noteSize = note.size;
