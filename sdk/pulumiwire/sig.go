package pulumiwire

// SigKey is the property that tags an object as a special value. Its
// value is one of the signatures below.
const SigKey = "4dabf18193072939515e22adb298388d"

// Signatures of the special values, the value of SigKey.
const (
	SecretSig     = "1b47061264138c4ac30d75fd1eb44270"
	ReferenceSig  = "5cf8f73096256a8f31e491e813e4eb8e"
	OutputSig     = "d0e6a833031e9bbcd3f4e8bde6ca49a4"
	ByteStringSig = "803fd3297a5875dc03ca845dda5d2a98"
	AssetSig      = "c44067f5952c0a294b673a41bacd8c17"
	ArchiveSig    = "0def7320c3a5731c473e5ecbe6d01bc7"
)

// Unknown sentinels: strings standing for a value not yet known. Every one
// decodes to resource.Unknown(); plinth's unknowns carry no type, so they
// are encoded as UnknownString, the sentinel peers treat as "any".
const (
	UnknownBool    = "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7"
	UnknownNumber  = "3eeb2bf0-c639-47a8-9e75-3b44932eb421"
	UnknownString  = "04da6b54-80e4-46f7-96ec-b56ff0331ba9"
	UnknownArray   = "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2"
	UnknownAsset   = "030794c1-ac77-496b-92df-f27374a8bd58"
	UnknownArchive = "e48ece36-62e2-4504-bad9-02848725956a"
	UnknownObject  = "dd056dcd-154b-4c76-9bd3-c8f88648b5ff"
)

// IsUnknownSentinel reports whether s is one of the unknown sentinels.
func IsUnknownSentinel(s string) bool {
	switch s {
	case UnknownBool, UnknownNumber, UnknownString, UnknownArray,
		UnknownAsset, UnknownArchive, UnknownObject:
		return true
	}
	return false
}
