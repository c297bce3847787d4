package rodagent

import "github.com/go-rod/rod/lib/defaults"

// rod's lib/defaults, in its package init, registers a global -rod flag on
// flag.CommandLine and parses -rod from os.Args (panicking on a value it does
// not know), unless the environment variable DISABLE_ROD_FLAG is set. That
// init runs before any code of this package or of the embedding program, so
// no Go package can prevent it: a program that defines its own -rod flag, or
// is started with -rod for another purpose, must run with DISABLE_ROD_FLAG
// set in its environment (see README). What a library can do is not let the
// program's command line change how a Browser behaves: rod's defaults (show,
// trace, slow, …) that a -rod argument may have set are reset here.
func init() {
	defaults.Reset()
}
