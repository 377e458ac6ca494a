// A second program: the same SDK, but plinth's provider runs out of
// process when pulumi-resource-plinth is on PLINTH_PLUGIN_PATH. An
// explicit provider resource and a function call go through it too.
import * as pulumi from "@pulumi/pulumi";
import * as plinth from "../plinth";

const provider = new plinth.Provider("local", { root: "." });
const pet = new plinth.Pet("pet", { length: 2 }, { provider });
const file = new plinth.File("file", { path: "out/plugin.txt", content: pulumi.interpolate`${pet.name}\n` }, { provider });

// Which process ran the command: the plugin, or plinth itself.
const who = new plinth.Command("who", { create: "cat /proc/$PPID/comm 2>/dev/null || echo unknown" }, { provider });

const home = pulumi.output(plinth.getEnv({ name: "PLINTH_EXAMPLE_VALUE", default: "unset" }, { provider }));

export const petName = pet.name;
export const size = file.size;
export const server = who.stdout;
export const envValue = home.value;
