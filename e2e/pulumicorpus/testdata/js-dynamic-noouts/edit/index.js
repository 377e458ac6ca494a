"use strict";
// The edit: the circle grows (its inputs change: replaced, as the
// provider asks), the square stays as it was (left alone), a triangle is
// added.
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

const circle = new Shape("circle", { shape: "circle", size: 3 });
const square = new Shape("square", { shape: "square", size: 2 });
const triangle = new Shape("triangle", { shape: "triangle", size: 1 });

exports.names = [circle, square, triangle].map((r) => r.urn.apply((u) => u.split("::").pop()));
