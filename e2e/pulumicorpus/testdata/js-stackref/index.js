"use strict";
// A StackReference to the program's own stack reads what the update
// before exported. Its outputs are chosen to be stable from one run to
// the next, so a preview after an update still finds nothing to change:
// a secret word (read back as a secret, or the word itself at the first
// up, when there is nothing to read) and, after the edit, the count the
// up exported.
const pulumi = require("@pulumi/pulumi");

class Integer extends pulumi.CustomResource {
    constructor(name, args, opts) {
        super("plinth:random:Integer", name, { result: undefined, ...args }, opts);
    }
}

const WORD = "swordfish";
const self = `${pulumi.getOrganization()}/${pulumi.getProject()}/${pulumi.getStack()}`;
const ref = new pulumi.StackReference(self);
const counter = new Integer("counter", { min: 1, max: 1000, seed: "counter" });
const details = pulumi.output(ref.getOutputDetails("word"));

exports.count = counter.result;
exports.word = pulumi.secret(WORD);
exports.previousWord = details.apply(d => d.secretValue ?? d.value ?? WORD);
exports.wordStaysSecret = details.apply(d => d.value === undefined);
exports.refName = ref.name;
