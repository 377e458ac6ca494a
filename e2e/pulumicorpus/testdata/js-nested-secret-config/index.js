"use strict";
// Structured config whose password is a secure value nested in an
// object: requireSecretObject returns the object decrypted and marked
// secret. A file's content is made from it (a secret input, kept
// encrypted in state); outputs are secret or plain as the program says.
// The edit changes the port in the config, which updates the file.
const pulumi = require("@pulumi/pulumi");

class File extends pulumi.CustomResource {
    constructor(name, args, opts) {
        super("plinth:fs:File", name, { size: undefined, sha256: undefined, ...args }, opts);
    }
}

const config = new pulumi.Config();
const db = config.requireSecretObject("db");
const app = config.requireObject("app");

const dsn = db.apply(d => `postgres://${d.user}:${d.password}@${d.hosts.join(",")}:${d.port}/${app.name}`);
const file = new File("dsn", { path: "out/dsn.txt", content: dsn });

exports.dsn = dsn;
exports.dsnIsSecret = pulumi.isSecret(dsn);
exports.user = pulumi.unsecret(db.apply(d => d.user));
exports.passwordLength = db.apply(d => d.password.length);
exports.hosts = db.apply(d => d.hosts);
exports.appName = app.name;
exports.token = pulumi.secret({ kind: "token", parts: ["a", "b"] });
exports.fileSize = file.size;
