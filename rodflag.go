package rodagent

import (
	"flag"
	"os"

	"github.com/go-rod/rod/lib/defaults"
)

// rod's lib/defaults registers a global -rod flag and reads os.Args at init
// unless DISABLE_ROD_FLAG is set. A library must not change the embedding
// program's command line: drop the flag rod registered (so the program may
// define its own -rod) and reset every default rod may have taken from it, so
// a Browser behaves the same whatever the program was started with.
func init() {
	if _, set := os.LookupEnv("DISABLE_ROD_FLAG"); set {
		return
	}
	if f := flag.CommandLine.Lookup("rod"); f != nil && !flag.CommandLine.Parsed() &&
		f.Usage == "Set the default value of options used by rod." {
		old := flag.CommandLine
		fresh := flag.NewFlagSet(old.Name(), old.ErrorHandling())
		fresh.SetOutput(old.Output())
		fresh.Usage = old.Usage
		old.VisitAll(func(f *flag.Flag) {
			if f.Name != "rod" {
				fresh.Var(f.Value, f.Name, f.Usage)
			}
		})
		flag.CommandLine = fresh
	}
	defaults.Reset()
}
