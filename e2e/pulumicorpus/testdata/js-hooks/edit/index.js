"use strict";
// Resource hooks (pulumi.ResourceHook) before and after create and update
// append a line to hooks.log in the program's directory, tagged with the
// run that registered them. A run cannot see its own hooks (they run
// after the program registered its resources), and an output that grew
// with every run would make the next preview find a change; so the edit
// exports, sorted, the lines of the up's hooks only. Hooks do not run in
// previews (none asks to run on dry runs). The edit's update hooks check
// what they are given and throw, failing the update, if it is wrong.
const fs = require("fs");
const pulumi = require("@pulumi/pulumi");

const RUN = "edit";
const LOG = "hooks.log";

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

// hook logs one line: the run, the hook's name, the resource's, and what
// the hook saw.
function hook(name, show) {
    return new pulumi.ResourceHook(name, args => {
        fs.appendFileSync(LOG, `${RUN} ${name} ${args.name} ${show(args)}\n`);
    });
}

// sorted is an object's keys and values, in key order.
function sorted(o) {
    return Object.keys(o).sort().map(k => `${k}:${JSON.stringify(o[k])}`).join(",");
}

// expect throws unless ok: a hook that throws fails the step.
function expect(ok, what) {
    if (!ok) {
        throw new Error(`hook saw the wrong ${what}`);
    }
}

const hooks = {
    beforeCreate: [hook("before-create", a => `in=${sorted(a.newInputs)}`)],
    afterCreate: [hook("after-create", a => `out=${a.newOutputs.result ?? a.newOutputs.size}`)],
    beforeUpdate: [hook("before-update", a => {
        expect(a.oldInputs.content.startsWith("num ") && !a.oldInputs.content.startsWith("num is "), "old inputs");
        expect(a.newInputs.content.startsWith("num is "), "new inputs");
        expect(a.oldOutputs.size === a.oldInputs.content.length, "old outputs");
        return `old=${a.oldInputs.content.length} new=${a.newInputs.content.length}`;
    })],
    afterUpdate: [hook("after-update", a => {
        expect(a.newOutputs.size === a.newInputs.content.length, "new outputs");
        expect(a.oldOutputs.size === a.oldInputs.content.length, "old outputs");
        return `out=${a.newOutputs.size}`;
    })],
};

const num = new Integer("num", { min: 1, max: 100, seed: "hooks" }, { hooks });
const note = new File("note", { path: "out/note.txt", content: pulumi.interpolate`num is ${num.result}\n` }, { hooks });

const seen = fs.readFileSync(LOG, "utf8").split("\n").filter(l => l.startsWith("up ")).sort();

exports.seen = seen;
exports.num = num.result;
exports.noteSize = note.size;
