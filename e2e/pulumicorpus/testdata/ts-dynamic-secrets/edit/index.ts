// A dynamic provider in TypeScript that seals values: configure() takes a
// secret salt from the stack's config; each Seal's input value is a
// secret config value; its outputs are a fingerprint of salt and value
// (made secret by additionalSecretOutputs) and the value's length. The
// edit changes one seal's label (an update) and adds a seal (a create).
import * as crypto from "crypto";
import * as pulumi from "@pulumi/pulumi";

interface SealInputs {
    label: string;
    value: string;
}

class Sealer implements pulumi.dynamic.ResourceProvider {
    private salt = "";

    async configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
        this.salt = req.config.require("salt");
    }

    async diff(_id: string, olds: SealInputs, news: SealInputs): Promise<pulumi.dynamic.DiffResult> {
        const replaces = olds.value !== news.value ? ["value"] : [];
        return { changes: replaces.length > 0 || olds.label !== news.label, replaces };
    }

    async create(inputs: SealInputs): Promise<pulumi.dynamic.CreateResult> {
        return { id: inputs.label, outs: this.seal(inputs) };
    }

    async update(_id: string, _olds: SealInputs, news: SealInputs): Promise<pulumi.dynamic.UpdateResult> {
        return { outs: this.seal(news) };
    }

    private seal(inputs: SealInputs) {
        const fingerprint = crypto.createHash("sha256").update(`${this.salt}/${inputs.value}`).digest("hex").slice(0, 16);
        return { label: inputs.label, value: inputs.value, fingerprint, length: inputs.value.length };
    }
}

class Seal extends pulumi.dynamic.Resource {
    public readonly label!: pulumi.Output<string>;
    public readonly fingerprint!: pulumi.Output<string>;
    public readonly length!: pulumi.Output<number>;

    constructor(name: string, args: { label: pulumi.Input<string>; value: pulumi.Input<string> }, opts?: pulumi.CustomResourceOptions) {
        super(new Sealer(), name, { fingerprint: undefined, length: undefined, ...args }, { additionalSecretOutputs: ["fingerprint"], ...opts });
    }
}

const config = new pulumi.Config();
const api = new Seal("api", { label: "api key", value: config.requireSecret("apiKey") });
const db = new Seal("db", { label: "main database", value: config.requireSecret("dbPassword") });

const cache = new Seal("cache", { label: "cache", value: pulumi.secret("cache-pass") });

export const cacheFingerprint = cache.fingerprint;
export const apiFingerprint = api.fingerprint;
export const apiLength = api.length;
export const dbLabel = db.label;
export const dbFingerprint = db.fingerprint;
