// A small hand-written Node.js SDK for plinth's built-in provider: one
// class per resource type, each a pulumi.CustomResource with the type
// token and properties of docs/providers/plinth.md.
import * as pulumi from "@pulumi/pulumi";

/** Arguments of plinth:random:Pet. */
export interface PetArgs {
    length?: pulumi.Input<number>;
    prefix?: pulumi.Input<string>;
    separator?: pulumi.Input<string>;
    keepers?: pulumi.Input<Record<string, pulumi.Input<any>>>;
}

/** A random pet name, such as "witty-otter". */
export class Pet extends pulumi.CustomResource {
    public readonly name!: pulumi.Output<string>;
    public readonly length!: pulumi.Output<number>;
    public readonly prefix!: pulumi.Output<string | undefined>;

    constructor(name: string, args?: PetArgs, opts?: pulumi.CustomResourceOptions) {
        super("plinth:random:Pet", name, { name: undefined, ...args }, opts);
    }
}

/** Arguments of plinth:random:String. */
export interface RandomStringArgs {
    length: pulumi.Input<number>;
    special?: pulumi.Input<boolean>;
    upper?: pulumi.Input<boolean>;
    keepers?: pulumi.Input<Record<string, pulumi.Input<any>>>;
}

/** A random string (not a secret). */
export class RandomString extends pulumi.CustomResource {
    public readonly result!: pulumi.Output<string>;

    constructor(name: string, args: RandomStringArgs, opts?: pulumi.CustomResourceOptions) {
        super("plinth:random:String", name, { result: undefined, ...args }, opts);
    }
}

/** Arguments of plinth:fs:File. */
export interface FileArgs {
    path: pulumi.Input<string>;
    content?: pulumi.Input<string>;
    permissions?: pulumi.Input<string>;
}

/** A local file. */
export class File extends pulumi.CustomResource {
    public readonly path!: pulumi.Output<string>;
    public readonly content!: pulumi.Output<string | undefined>;
    public readonly absolutePath!: pulumi.Output<string>;
    public readonly sha256!: pulumi.Output<string>;
    public readonly size!: pulumi.Output<number>;

    /**
     * Reads an existing file that plinth does not manage: recorded with
     * what was read, never changed or deleted. id is its path.
     */
    public static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): File {
        return new File(name, undefined as unknown as FileArgs, { ...opts, id });
    }

    constructor(name: string, args: FileArgs, opts?: pulumi.CustomResourceOptions) {
        const outputs = { absolutePath: undefined, sha256: undefined, size: undefined };
        super("plinth:fs:File", name, opts?.id ? { path: undefined, content: undefined, ...outputs } : { ...outputs, ...args }, opts);
    }
}

/** Arguments of plinth:exec:Command. */
export interface CommandArgs {
    create: pulumi.Input<string>;
    delete?: pulumi.Input<string>;
    update?: pulumi.Input<string>;
    dir?: pulumi.Input<string>;
    environment?: pulumi.Input<Record<string, pulumi.Input<string>>>;
    triggers?: pulumi.Input<pulumi.Input<any>[]>;
}

/** Shell commands run on create, update and delete. */
export class Command extends pulumi.CustomResource {
    public readonly stdout!: pulumi.Output<string>;
    public readonly stderr!: pulumi.Output<string>;

    constructor(name: string, args: CommandArgs, opts?: pulumi.CustomResourceOptions) {
        super("plinth:exec:Command", name, { stdout: undefined, stderr: undefined, ...args }, opts);
    }
}

/** Arguments of the plinth provider. */
export interface ProviderArgs {
    root?: pulumi.Input<string>;
}

/** An explicit plinth provider. */
export class Provider extends pulumi.ProviderResource {
    constructor(name: string, args?: ProviderArgs, opts?: pulumi.ResourceOptions) {
        super("plinth", name, { ...args }, opts);
    }
}

/** Result of plinth:index:getEnv. */
export interface GetEnvResult {
    exists: boolean;
    value: string;
}

/** Reads an environment variable of the plinth process. */
export function getEnv(args: { name: string; default?: string }, opts?: pulumi.InvokeOptions): Promise<GetEnvResult> {
    return pulumi.runtime.invoke("plinth:index:getEnv", args, opts);
}
