"use strict";
// A dynamic provider (pulumi.dynamic.Resource) whose configure() reads the
// stack's config: a plain greeting and a secret token. Each Greeting's
// text is made from both, so the outputs show that each reached the
// provider; the token itself is never output, only a digest of it.
const pulumi = require("@pulumi/pulumi");

const greeter = {
    async configure(req) {
        this.greeting = req.config.require("greeting");
        this.token = req.config.require("token");
    },
    async check(olds, news) {
        return { inputs: news };
    },
    async diff(id, olds, news) {
        const replaces = olds.lang !== news.lang ? ["lang"] : [];
        return { changes: replaces.length > 0 || olds.who !== news.who, replaces };
    },
    async create(inputs) {
        const outs = this.render(inputs);
        return { id: `${inputs.lang}-${inputs.who}`, outs };
    },
    async update(id, olds, news) {
        return { outs: this.render(news) };
    },
    render(inputs) {
        const crypto = require("crypto");
        const digest = crypto.createHash("sha256").update(this.token).digest("hex").slice(0, 12);
        return {
            lang: inputs.lang,
            who: inputs.who,
            text: `${this.greeting} ${inputs.who} (${inputs.lang})`,
            tokenDigest: digest,
        };
    },
};

class Greeting extends pulumi.dynamic.Resource {
    constructor(name, args, opts) {
        super(greeter, name, { text: undefined, tokenDigest: undefined, ...args }, opts);
    }
}

const config = new pulumi.Config();
const who = config.require("who");
const first = new Greeting("first", { lang: "en", who });
const second = new Greeting("second", { lang: "de", who: "monde" });
const third = new Greeting("third", { lang: "es", who: "mundo" });

exports.first = first.text;
exports.second = second.text;
exports.third = third.text;
exports.tokenDigest = first.tokenDigest;
