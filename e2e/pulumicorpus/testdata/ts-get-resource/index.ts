// Three ways to read what exists. File.get reads a file the program does
// not manage (its own Pulumi.yaml); the readFile invoke reads it too; and,
// after the edit, a resource built with the urn option looks up the
// Integer the up created (pulumi:pulumi:getResource) and uses its result.
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
const project = File.get("project", "Pulumi.yaml");
const read = pulumi.output(pulumi.runtime.invoke("plinth:index:readFile", { path: "Pulumi.yaml" }));

export const originResult = origin.result;
export const projectSize = project.size;
export const projectSha = project.sha256;
export const readSha = read.apply(r => r.sha256);
export const sameFile = pulumi.all([project.sha256, read]).apply(([a, r]) => a === r.sha256);
