"use strict";
// A remote component: comp:index:Site from e2e/component's
// pulumi-resource-comp makes one comp:index:Item child per name in items,
// in its provider's Construct. The component's own transform moves its
// items to zone "west"; a stack transform, run after it, appends "-stack"
// to every item's label and zone (so the paths show both ran, in order). The edit (edit/index.js) changes the label and the items.
const pulumi = require("@pulumi/pulumi");

const label = "two";
const items = ["a", "c"];

class Site extends pulumi.ComponentResource {
    constructor(name, args, opts) {
        super("comp:index:Site", name, { ...args, paths: undefined, count: undefined }, opts, true);
    }
}

pulumi.runtime.registerResourceTransform((args) => args.type === "comp:index:Item"
    ? { props: { ...args.props, label: args.props.label + "-stack", zone: args.props.zone + "-stack" }, opts: args.opts }
    : undefined);

const site = new Site("web", { items, label, zone: "east" }, {
    transforms: [(args) => args.type === "comp:index:Item"
        ? { props: { ...args.props, zone: "west" }, opts: args.opts }
        : undefined],
});

exports.paths = site.paths;
exports.count = site.count;
