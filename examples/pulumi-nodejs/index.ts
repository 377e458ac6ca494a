// A Pulumi program in TypeScript, run unchanged by plinth: random pets,
// files written from them, a component resource of the program's own,
// config (plain and secret), dependsOn, protect, a get of an existing
// file, and stack outputs.
import * as pulumi from "@pulumi/pulumi";
import * as plinth from "./plinth";

const config = new pulumi.Config();
const greeting = config.get("greeting") ?? "hello";
const token = config.requireSecret("token");

/** A note: a pet name and a file that greets it, under one component. */
class Note extends pulumi.ComponentResource {
    public readonly pet: plinth.Pet;
    public readonly file: plinth.File;

    constructor(name: string, args: { length: number; dir: string }, opts?: pulumi.ComponentResourceOptions) {
        super("examples:index:Note", name, {}, opts);
        this.pet = new plinth.Pet(`${name}-pet`, { length: args.length }, { parent: this });
        this.file = new plinth.File(`${name}-file`, {
            path: `${args.dir}/${name}.txt`,
            content: pulumi.interpolate`${greeting}, ${this.pet.name}!\n`,
        }, { parent: this });
        this.registerOutputs({ pet: this.pet.name, path: this.file.absolutePath });
    }
}

const pet = new plinth.Pet("pet", { length: 2 });
const note = new Note("note", { length: 3, dir: "out" });

// The secret reaches a file; plinth records the file's content encrypted.
const secretFile = new plinth.File("secret", {
    path: "out/secret.txt",
    content: pulumi.interpolate`token=${token}\n`,
    permissions: "0600",
});

// An apply derives a value: the pet name, shouted.
const shout = pet.name.apply(n => n.toUpperCase());
const shouted = new plinth.File("shouted", { path: "out/shouted.txt", content: shout }, { dependsOn: [note] });

// A protected resource: plinth refuses to delete or replace it.
const keep = new plinth.RandomString("keep", { length: 8, special: false }, { protect: config.getBoolean("protect") ?? true });

// A get: the project file, read and recorded but never managed.
const manifest = plinth.File.get("manifest", "Pulumi.yaml");

export const petName = pet.name;
export const manifestSize = manifest.size;
export const notePath = note.file.absolutePath;
export const shoutedSize = shouted.size;
export const keepResult = keep.result;
export const secretSha = secretFile.sha256;
export const tokenOut = token;
