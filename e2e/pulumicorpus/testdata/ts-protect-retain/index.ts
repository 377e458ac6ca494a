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

const guarded = new Integer("guarded", { min: 1, max: 500, seed: "guarded" }, { protect: true });
const hidden = new Integer("hidden", { min: 1, max: 500, seed: "hidden" }, { additionalSecretOutputs: ["result"] });
const kept = new File("kept", { path: "out/kept.txt", content: "kept\n" }, { retainOnDelete: true });
const sidecar = new File("sidecar", { path: "out/sidecar.txt", content: "sidecar\n" }, { deletedWith: kept });

export const guardedResult = guarded.result;
export const hiddenResult = hidden.result;
export const hiddenIsSecret = pulumi.isSecret(hidden.result);
export const keptSize = kept.size;
export const sidecarSize = sidecar.size;
export const filesOnDisk = ["out/kept.txt", "out/sidecar.txt"].filter(f => fs.existsSync(f));
