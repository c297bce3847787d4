package rodagent_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// What the README says about rod's -rod flag, checked on a real program that
// embeds the library: the program's command line never changes rod's
// defaults; a program with its own -rod flag needs DISABLE_ROD_FLAG, which
// no package can set before rod's init runs.
func TestRodFlag(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "rodflag")
	build := exec.CommandContext(testCtx(t, 3*time.Minute), "go", "build", "-o", bin, "./testdata/rodflag")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building testdata/rodflag: %v\n%s", err, out)
	}
	run := func(env []string, args ...string) (string, error) {
		cmd := exec.CommandContext(testCtx(t, time.Minute), bin, args...)
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	// -rod on the command line reaches rod's init, but not a Browser's defaults.
	if out, err := run(nil, "-rod=show,trace"); err != nil || !strings.Contains(out, "show=false trace=false") {
		t.Errorf("rod's defaults must not follow the program's -rod: %v\n%s", err, out)
	}
	// A program with its own -rod: rod registered it first. Without the
	// variable that is a redefinition panic, as the README says.
	if out, err := run([]string{"RODFLAG_OWN=1"}); err == nil || !strings.Contains(out, "flag redefined: rod") {
		t.Errorf("without DISABLE_ROD_FLAG the program's own -rod collides with rod's (README): %v\n%s", err, out)
	}
	// With DISABLE_ROD_FLAG in the environment the flag is the program's.
	out, err := run([]string{"RODFLAG_OWN=1", "DISABLE_ROD_FLAG=1"}, "-rod=mine")
	if err != nil || !strings.Contains(out, "own -rod: mine") || !strings.Contains(out, "show=false") {
		t.Errorf("with DISABLE_ROD_FLAG the program owns -rod: %v\n%s", err, out)
	}
}
