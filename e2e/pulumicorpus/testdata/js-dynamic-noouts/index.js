"use strict";
// A dynamic provider written the short way: create returns an ID and no
// outputs, and diff names "shape" for replacement when the recorded
// outputs' shape differs from the new one, saying nothing of "changes".
// The recorded outputs never hold a shape, so the provider asks for a
// replacement at every run; pulumi settles such a diff ("unknown") by
// comparing the inputs itself and leaves a resource whose inputs did not
// change alone, and replaces one whose inputs did.
const crypto = require("crypto");
const pulumi = require("@pulumi/pulumi");

const shapes = {
    async diff(id, olds, news) {
        return { replaces: olds.shape !== news.shape ? ["shape"] : [] };
    },
    async create(inputs) {
        return { id: `${inputs.shape}-${crypto.randomBytes(4).toString("hex")}` };
    },
};

class Shape extends pulumi.dynamic.Resource {
    constructor(name, args, opts) {
        super(shapes, name, args, opts);
    }
}

const circle = new Shape("circle", { shape: "circle", size: 1 });
const square = new Shape("square", { shape: "square", size: 2 });

exports.names = [circle.urn.apply((u) => u.split("::").pop()), square.urn.apply((u) => u.split("::").pop())];
