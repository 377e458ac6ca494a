"use strict";
// Options that decide what an edit does. The edit changes the content
// given to every file and the seed of one integer:
//   ignored  ignoreChanges content            -> unchanged
//   forced   replaceOnChanges content         -> replaced
//   timed    customTimeouts, dependsOn forced -> updated
//   swapped  deleteBeforeReplace, new seed    -> replaced
//   steady   nothing changes                  -> unchanged
const pulumi = require("@pulumi/pulumi");

const VERSION = "version 2";

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

const ignored = new File("ignored", { path: "out/ignored.txt", content: `ignored ${VERSION}\n` }, { ignoreChanges: ["content"] });
const forced = new File("forced", { path: "out/forced.txt", content: `forced ${VERSION}\n` }, { replaceOnChanges: ["content"] });
const timed = new File("timed", { path: "out/timed.txt", content: `timed ${VERSION}\n` }, {
    customTimeouts: { create: "2m", update: "2m", delete: "1m" },
    dependsOn: [forced],
});
const swapped = new Integer("swapped", { min: 1, max: 99, seed: `swapped ${VERSION}` }, { deleteBeforeReplace: true });
const steady = new Integer("steady", { min: 1, max: 99, seed: "steady" });

exports.ignoredSize = ignored.size;
exports.forcedSize = forced.size;
exports.timedSize = timed.size;
exports.swapped = swapped.result;
exports.steady = steady.result;
