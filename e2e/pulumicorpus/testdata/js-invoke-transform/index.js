"use strict";
// An invoke transform, registered for the whole stack, rewrites every
// plinth:index:readFile invoke's path into data/ and picks the release
// named by RELEASE; the program asks for "release.txt". The file it reads
// becomes a managed file's content, so the edit (a new release) updates
// that file.
const pulumi = require("@pulumi/pulumi");

const RELEASE = "v1";

class File extends pulumi.CustomResource {
    constructor(name, args, opts) {
        super("plinth:fs:File", name, { size: undefined, ...args }, opts);
    }
}

pulumi.runtime.registerInvokeTransform(args => {
    if (args.token !== "plinth:index:readFile") {
        return undefined;
    }
    return { args: { ...args.args, path: `data/${RELEASE}.txt` }, opts: args.opts };
});

const release = pulumi.output(pulumi.runtime.invoke("plinth:index:readFile", { path: "release.txt" }));
const copy = new File("copy", { path: "out/release.txt", content: release.apply(r => r.content) });

exports.content = release.apply(r => r.content);
exports.size = release.apply(r => r.size);
exports.copySize = copy.size;
