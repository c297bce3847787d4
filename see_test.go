package rodagent_test

import (
	"os"
	"testing"
)

func TestSeeDump(t *testing.T) {
	p := open(t, os.Getenv("SEE_PAGE"))
	s := snapshot(t, p)
	t.Logf("%d chars\n%s", len(s.String()), s)
}
