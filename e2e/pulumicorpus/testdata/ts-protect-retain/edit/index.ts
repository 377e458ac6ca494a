// Options about keeping things. guarded is protected (the edit lifts the
// protection, which changes nothing else); kept has retainOnDelete and
// its sidecar is deletedWith it, so when the edit drops both the stack
// forgets them while the files stay on disk; hidden's result is a secret
// output through additionalSecretOutputs.
import * as fs from "fs";
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

export const guardedResult = guarded.result;
export const hiddenResult = hidden.result;
export const hiddenIsSecret = pulumi.isSecret(hidden.result);
export const filesOnDisk = ["out/kept.txt", "out/sidecar.txt"].filter(f => fs.existsSync(f));
