package plinth

// Word lists for pet names, written for plinth: short, friendly, common
// English words.

var petAdverbs = []string{
	"boldly", "briskly", "calmly", "cheerfully", "closely", "deeply", "eagerly",
	"easily", "fairly", "firmly", "freely", "gently", "gladly", "happily",
	"highly", "honestly", "kindly", "lightly", "loudly", "mildly", "neatly",
	"nicely", "openly", "patiently", "politely", "proudly", "quickly", "quietly",
	"rarely", "really", "safely", "simply", "slowly", "smoothly", "softly",
	"surely", "swiftly", "truly", "warmly", "wildly", "wisely",
}

var petAdjectives = []string{
	"able", "amber", "bold", "brave", "bright", "brisk", "busy", "calm", "clever",
	"cosy", "curious", "daring", "eager", "fair", "fancy", "fast", "fine",
	"fluffy", "fond", "gentle", "giddy", "glad", "golden", "grand", "happy",
	"hardy", "honest", "humble", "jolly", "keen", "kind", "lively", "loyal",
	"lucky", "merry", "mighty", "modest", "neat", "nimble", "noble", "patient",
	"plucky", "polite", "proud", "quick", "quiet", "rapid", "ready", "rosy",
	"shy", "sleepy", "smart", "snappy", "steady", "sunny", "swift", "tidy",
	"tender", "upbeat", "vivid", "warm", "witty", "zesty",
}

var petNames = []string{
	"alpaca", "badger", "beaver", "bison", "bobcat", "buffalo", "camel", "cat",
	"cheetah", "chipmunk", "cougar", "coyote", "crane", "crow", "deer", "dingo",
	"dog", "dolphin", "donkey", "dove", "duck", "eagle", "elk", "falcon",
	"ferret", "finch", "fox", "frog", "gazelle", "gecko", "goat", "goose",
	"gopher", "hare", "hawk", "hedgehog", "heron", "horse", "ibex", "jackal",
	"jaguar", "koala", "lemur", "leopard", "lion", "llama", "lynx", "marmot",
	"mink", "mole", "moose", "mouse", "newt", "ocelot", "otter", "owl", "panda",
	"parrot", "pelican", "penguin", "pony", "puffin", "puma", "quail", "rabbit",
	"raven", "robin", "salmon", "seal", "shark", "sheep", "sloth", "sparrow",
	"squid", "stork", "swan", "tapir", "tiger", "toad", "trout", "turtle",
	"walrus", "weasel", "whale", "wolf", "wombat", "yak", "zebra",
}
