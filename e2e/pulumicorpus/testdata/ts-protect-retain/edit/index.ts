// Options about keeping things. guarded is protected (the edit lifts the
// protection, which changes nothing else, and lets destroy delete it);
// hidden's result is a secret output through additionalSecretOutputs;
// kept has retainOnDelete and its sidecar is deletedWith it: the edit
// updates the sidecar, and destroy forgets both, leaving their files on
// disk. (The edit does not drop kept: plinth counts a retained delete as
// "discarded", pulumi as "deleted".)
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
        super("plinth:fs:File", name, { size: undefined, ...args }, opts);
    }
}

const guarded = new Integer("guarded", { min: 1, max: 500, seed: "guarded" }, { protect: false });
const hidden = new Integer("hidden", { min: 1, max: 500, seed: "hidden" }, { additionalSecretOutputs: ["result"] });
const kept = new File("kept", { path: "out/kept.txt", content: "kept\n" }, { retainOnDelete: true });
const sidecar = new File("sidecar", { path: "out/sidecar.txt", content: "sidecar, edited\n" }, { deletedWith: kept });

export const guardedResult = guarded.result;
export const hiddenResult = hidden.result;
export const hiddenIsSecret = pulumi.isSecret(hidden.result);
export const keptSize = kept.size;
export const sidecarSize = sidecar.size;
