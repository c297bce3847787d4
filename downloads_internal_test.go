package rodagent

import "testing"

// The line a look gives an unclaimed download quotes the page's file name,
// so a name cannot start a line of its own or pass for a ref.
func TestUnclaimedDownloadLine(t *testing.T) {
	for _, c := range []struct {
		d    UnclaimedDownload
		want string
	}{
		{UnclaimedDownload{Name: "report.csv", Refused: true}, `download "report.csv" refused: nothing was waiting to save it (use WaitDownload, or the download verb)`},
		{UnclaimedDownload{Name: "report.csv"}, `download "report.csv" left to the browser's own download setting: nothing here was waiting to save it (use WaitDownload, or the download verb)`},
		{UnclaimedDownload{Name: "a\nbtn-delete-account\u202e.csv", Refused: true}, `download "a\nbtn-delete-account\u202e.csv" refused: nothing was waiting to save it (use WaitDownload, or the download verb)`},
	} {
		if got := c.d.String(); got != c.want {
			t.Errorf("%+v:\n got %s\nwant %s", c.d, got, c.want)
		}
	}
}
