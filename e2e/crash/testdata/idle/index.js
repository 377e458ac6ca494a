// Waits, talking to no one, then registers nothing: a program that has
// not yet noticed that its engine is gone.
require("@pulumi/pulumi");
require("fs").writeFileSync(process.env.CRASH_LEDGER + ".started", String(process.pid));
setTimeout(() => {}, 60000);
