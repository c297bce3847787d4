// Command rodflag is a program that embeds rodagent; with RODFLAG_OWN=1 it
// defines a -rod flag of its own. rodflag_test.go builds and runs it to check
// what the README says about rod's -rod flag.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/go-rod/rod/lib/defaults"

	_ "github.com/rodagent/rodagent"
)

// Package variables initialise after every imported package's init: rod's
// included, as in any program.
var own = defineOwn()

func defineOwn() *string {
	if os.Getenv("RODFLAG_OWN") != "1" {
		return nil
	}
	return flag.String("rod", "default", "the program's own -rod")
}

func main() {
	flag.Parse()
	fmt.Printf("rod defaults: show=%v trace=%v\n", defaults.Show, defaults.Trace)
	if own != nil {
		fmt.Printf("own -rod: %s\n", *own)
	}
}
