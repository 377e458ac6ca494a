"use strict";
// The crash harness's Pulumi program (e2e/crash/dynamic_test.go): its
// resources are pulumi.dynamic.Resource objects whose "cloud" is the
// harness's ledger, an append-only file named by CRASH_LEDGER in the
// environment plinth gives the dynamic provider. create appends
// `create URN ID X` with an ID of its own making (so two creates of one
// resource leave two objects), update `update ID X`, delete `delete ID`;
// each waits about CRASH_DELAY_MS (between half and one and a half
// times it, at random) before and after its line, so that a kill lands
// in the middle of calls, and calls made together write at different
// moments. Before its first pause each call appends `begin` and its
// line to the ledger's name with .calls added, so that the harness can
// kill plinth while a call has not yet made its effect.
//
// The harness writes things.json before each run: the resources of this
// generation, as [{name, x, k, dbr}]. A change of x updates a resource,
// a change of k replaces it (deleting first when dbr is set).
const pulumi = require("@pulumi/pulumi");
const fs = require("fs");

// The provider requires what it needs when it runs, in the provider's
// process, rather than capturing the program's modules.
async function effect(line) {
    const fs = require("fs");
    const delay = () => Number(process.env.CRASH_DELAY_MS || "0") * (0.5 + Math.random());
    fs.appendFileSync(process.env.CRASH_LEDGER + ".calls", "begin " + line + "\n");
    await new Promise((resolve) => setTimeout(resolve, delay()));
    fs.appendFileSync(process.env.CRASH_LEDGER, line + "\n");
    await new Promise((resolve) => setTimeout(resolve, delay()));
}

const ledgerProvider = {
    async diff(id, olds, news) {
        const replaces = olds.k !== news.k ? ["k"] : [];
        return {
            changes: olds.x !== news.x || replaces.length > 0,
            replaces,
            deleteBeforeReplace: Boolean(news.dbr),
        };
    },
    async create(inputs) {
        const id = `${inputs.name}-${require("crypto").randomBytes(6).toString("hex")}`;
        await effect(`create ${inputs.key} ${id} ${inputs.x}`);
        return { id, outs: inputs };
    },
    async update(id, olds, news) {
        await effect(`update ${id} ${news.x}`);
        return { outs: news };
    },
    async delete(id) {
        await effect(`delete ${id}`);
    },
};

class Thing extends pulumi.dynamic.Resource {
    constructor(name, args, opts) {
        super(ledgerProvider, name, args, opts);
    }
}

// The URN is an input so that the ledger names what it holds the way the
// state does; the harness compares the two by URN.
const type = "pulumi-nodejs:dynamic:Resource";
const prefix = `urn:pulumi:${pulumi.getStack()}::${pulumi.getProject()}::${type}::`;
for (const t of JSON.parse(fs.readFileSync("things.json", "utf8"))) {
    new Thing(t.name, { name: t.name, key: prefix + t.name, x: t.x, k: t.k, dbr: t.dbr });
}
