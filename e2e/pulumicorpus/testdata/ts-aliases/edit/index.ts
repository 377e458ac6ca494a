// A Store component with two children whose names start with the
// store's name. The edit renames the store and moves it under a new
// Group component, with one alias on the store only: the children's
// aliases are derived from their parent's, so nothing but the Group is
// created. A plain resource is renamed with an alias of its own.
import * as pulumi from "@pulumi/pulumi";

class Integer extends pulumi.CustomResource {
    public readonly result!: pulumi.Output<number>;
    constructor(name: string, args: { min: number; max: number; seed: string }, opts?: pulumi.CustomResourceOptions) {
        super("plinth:random:Integer", name, { result: undefined, ...args }, opts);
    }
}

class File extends pulumi.CustomResource {
    public readonly size!: pulumi.Output<number>;
    constructor(name: string, args: { path: string; content: pulumi.Input<string> }, opts?: pulumi.CustomResourceOptions) {
        super("plinth:fs:File", name, { size: undefined, sha256: undefined, ...args }, opts);
    }
}

class Store extends pulumi.ComponentResource {
    public readonly shard: pulumi.Output<number>;
    public readonly size: pulumi.Output<number>;
    constructor(name: string, opts?: pulumi.ComponentResourceOptions) {
        super("corpus:index:Store", name, {}, opts);
        const shard = new Integer(`${name}-shard`, { min: 1, max: 64, seed: "store" }, { parent: this });
        const file = new File(`${name}-file`, {
            path: "out/store.txt",
            content: pulumi.interpolate`shard ${shard.result}\n`,
        }, { parent: this });
        this.shard = shard.result;
        this.size = file.size;
        this.registerOutputs({ shard: this.shard, size: this.size });
    }
}

class Group extends pulumi.ComponentResource {
    constructor(name: string, opts?: pulumi.ComponentResourceOptions) {
        super("corpus:index:Group", name, {}, opts);
        this.registerOutputs({});
    }
}

const group = new Group("group");
const store = new Store("main", {
    parent: group,
    aliases: [{ name: "legacy", parent: pulumi.rootStackResource }],
});
const tag = new Integer("label", { min: 0, max: 1000, seed: "tag" }, { aliases: [{ name: "tag" }] });

export const shard = store.shard;
export const size = store.size;
export const tagValue = tag.result;
