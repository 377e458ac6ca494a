// Three ways to read what exists. The readFile invoke reads the program's
// own Pulumi.yaml; the edit adds File.get of it, a file the program does
// not manage, and a resource built with the urn option that looks up the
// Integer the up created (pulumi:pulumi:getResource) and uses its result.
// (The get is the edit's only: at a later update plinth counts an
// unchanged read among the unchanged resources, pulumi nowhere.)
import * as pulumi from "@pulumi/pulumi";

class Integer extends pulumi.CustomResource {
    public readonly result!: pulumi.Output<number>;
    public readonly seed!: pulumi.Output<string>;
    constructor(name: string, args?: { min: number; max: number; seed: string }, opts?: pulumi.CustomResourceOptions) {
        super("plinth:random:Integer", name, { result: undefined, seed: undefined, ...args }, opts);
    }
}

class File extends pulumi.CustomResource {
    public readonly size!: pulumi.Output<number>;
    public readonly sha256!: pulumi.Output<string>;
    public readonly content!: pulumi.Output<string>;
    constructor(name: string, args?: { path: pulumi.Input<string>; content: pulumi.Input<string> }, opts?: pulumi.CustomResourceOptions) {
        super("plinth:fs:File", name, { size: undefined, sha256: undefined, content: undefined, ...args }, opts);
    }

    /** Reads an existing file; id is its path. */
    static get(name: string, id: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): File {
        return new File(name, undefined, { ...opts, id });
    }
}

const origin = new Integer("origin", { min: 1, max: 1000000, seed: "origin" });
const read = pulumi.output(pulumi.runtime.invoke("plinth:index:readFile", { path: "Pulumi.yaml" }));

export const originResult = origin.result;
export const readSha = read.apply(r => r.sha256);
export const readSize = read.apply(r => r.size);
