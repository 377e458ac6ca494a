package tfplugin

// fakeModeEnv, when set, makes the test binary serve a fake provider (see
// serveFake) instead of running tests.
const fakeModeEnv = "PLINTH_TFPLUGIN_FAKE"

func serveFake(mode string) {}
