// Command verifier checks a matchlog transparency log with code that is not matchlog's:
// golang.org/x/mod/sumdb/note for the signed checkpoints and
// github.com/transparency-dev/merkle for RFC 6962 inclusion and consistency proofs.
//
//	verifier -url http://127.0.0.1:3000 -key '<verifier key>' [-receipt file] [-since file] [-samples n] [-save file]
//
// It verifies the latest checkpoint's signature, a write's receipt (-receipt: the JSON of
// a POST/PUT/DELETE answer), the inclusion of random entries, and the consistency of the
// latest checkpoint with an older one (-since: a signed checkpoint saved earlier with -save).
// Each check prints one "ok" line; the first failure prints "FAIL" and exits 1.
//
//	verifier -note file -key '<log verifier key>' -witness '<witness vkey>' [-witness …]
//	verifier -note file -cosign '<witness signer key>'
//	verifier -submit <witness URL> -log-signer '<note signer key>' -witness '<witness vkey>'
//
// With -note it checks C2SP tlog-cosignature instead, with github.com/transparency-dev/formats/note:
// that the note (a checkpoint) is signed by the log and cosigned (cosignature/v1) by every
// -witness, printing each cosignature's time; or, with -cosign, prints the note cosigned by that key.
// With -submit it is a log's witness client (c2sp.org/tlog-witness) against a running witness.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"os"
	"strconv"
	"strings"

	cosig "github.com/transparency-dev/formats/note"
	"github.com/transparency-dev/merkle/proof"
	"github.com/transparency-dev/merkle/rfc6962"
	"golang.org/x/mod/sumdb/note"
)

type keyList []string

func (k *keyList) String() string     { return strings.Join(*k, ",") }
func (k *keyList) Set(v string) error { *k = append(*k, v); return nil }

// cosigned verifies the log's signature and every witness's cosignature/v1 on a note.
func cosigned(text []byte, logKey string, witnessKeys []string) {
	logVerifier, err := note.NewVerifier(logKey)
	if err != nil {
		fail("verifier key: %v", err)
	}
	verifiers := []note.Verifier{logVerifier}
	for _, key := range witnessKeys {
		v, err := cosig.NewVerifierForCosignatureV1(key)
		if err != nil {
			fail("witness key %q: %v", key, err)
		}
		verifiers = append(verifiers, v)
	}
	n, err := note.Open(text, note.VerifierList(verifiers...))
	if err != nil {
		fail("note: %v", err)
	}
	byKey := map[string]note.Signature{}
	for _, s := range n.Sigs {
		byKey[fmt.Sprintf("%s+%08x", s.Name, s.Hash)] = s
	}
	if _, ok := byKey[fmt.Sprintf("%s+%08x", logVerifier.Name(), logVerifier.KeyHash())]; !ok {
		fail("note: no signature by the log %s", logVerifier.Name())
	}
	fmt.Printf("ok checkpoint signed by %s\n", logVerifier.Name())
	for _, v := range verifiers[1:] {
		s, ok := byKey[fmt.Sprintf("%s+%08x", v.Name(), v.KeyHash())]
		if !ok {
			fail("no verified cosignature by %s", v.Name())
		}
		t, err := cosig.CoSigV1Timestamp(s)
		if err != nil {
			fail("cosignature by %s: %v", v.Name(), err)
		}
		fmt.Printf("ok cosignature/v1 by %s at %d\n", v.Name(), t.Unix())
	}
}

// cosign prints the note with a cosignature/v1 by formats' own signer added.
func cosign(text []byte, signerKey string) {
	signer, err := cosig.NewSignerForCosignatureV1(signerKey)
	if err != nil {
		fail("signer key: %v", err)
	}
	n, err := note.Open(text, note.VerifierList())
	var unverified *note.UnverifiedNoteError
	if err != nil && !errors.As(err, &unverified) {
		fail("note: %v", err)
	}
	if unverified != nil {
		n = unverified.Note
	}
	signed, err := note.Sign(&note.Note{Text: n.Text, UnverifiedSigs: n.UnverifiedSigs}, signer)
	if err != nil {
		fail("cosign: %v", err)
	}
	os.Stdout.Write(signed)
}

type checkpoint struct {
	origin string
	size   uint64
	root   []byte
}

func fail(format string, args ...any) {
	fmt.Printf("FAIL "+format+"\n", args...)
	os.Exit(1)
}

func get(base, path string) []byte {
	resp, err := http.Get(base + path)
	if err != nil {
		fail("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		fail("GET %s: %d %s", path, resp.StatusCode, body)
	}
	return body
}

// open verifies a signed note with the key and parses its C2SP tlog-checkpoint body.
func open(text []byte, verifier note.Verifier, origin string) checkpoint {
	n, err := note.Open(text, note.VerifierList(verifier))
	if err != nil {
		fail("checkpoint signature: %v", err)
	}
	lines := strings.SplitN(n.Text, "\n", 4)
	if len(lines) < 4 {
		fail("checkpoint body has %d lines", len(lines))
	}
	size, err := strconv.ParseUint(lines[1], 10, 64)
	if err != nil {
		fail("checkpoint size %q", lines[1])
	}
	root, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || len(root) != sha256.Size {
		fail("checkpoint root %q", lines[2])
	}
	if origin != "" && lines[0] != origin {
		fail("checkpoint origin %q, expected %q", lines[0], origin)
	}
	return checkpoint{lines[0], size, root}
}

func hashes(body []byte) [][]byte {
	var answer struct{ Hashes []string }
	if err := json.Unmarshal(body, &answer); err != nil {
		fail("proof answer: %v", err)
	}
	out := make([][]byte, len(answer.Hashes))
	for i, h := range answer.Hashes {
		b, err := base64.StdEncoding.DecodeString(h)
		if err != nil {
			fail("proof hash %q", h)
		}
		out[i] = b
	}
	return out
}

func main() {
	base := flag.String("url", "", "the matchlog server's base URL")
	key := flag.String("key", "", "the log's verifier key (GET /api/log/key)")
	receiptFile := flag.String("receipt", "", "a write's JSON answer holding a receipt")
	since := flag.String("since", "", "a signed checkpoint saved earlier: prove the log only grew since")
	save := flag.String("save", "", "write the latest signed checkpoint here")
	samples := flag.Int("samples", 10, "random entries whose inclusion to verify")
	noteFile := flag.String("note", "", "a cosigned checkpoint: check its cosignatures instead")
	cosignKey := flag.String("cosign", "", "with -note: cosign it with this witness signer key and print it")
	var witnesses keyList
	flag.Var(&witnesses, "witness", "with -note: a witness verifier key whose cosignature must verify (repeatable)")
	submitURL := flag.String("submit", "", "a witness's submission prefix: act as a log submitting checkpoints to it")
	logSigner := flag.String("log-signer", "", "with -submit: the note signer key of the log it plays")
	flag.Parse()
	if *submitURL != "" {
		if len(witnesses) != 1 {
			fail("-submit needs one -witness key")
		}
		submit(*submitURL, *logSigner, witnesses[0])
		return
	}
	if *noteFile != "" {
		text, err := os.ReadFile(*noteFile)
		if err != nil {
			fail("note: %v", err)
		}
		if *cosignKey != "" {
			cosign(text, *cosignKey)
		} else {
			cosigned(text, *key, witnesses)
		}
		return
	}
	verifier, err := note.NewVerifier(*key)
	if err != nil {
		fail("verifier key: %v", err)
	}
	hasher := rfc6962.DefaultHasher

	latestText := get(*base, "/api/log/checkpoint")
	latest := open(latestText, verifier, "")
	fmt.Printf("ok checkpoint signed by %s: origin %s, size %d\n", verifier.Name(), latest.origin, latest.size)

	if *receiptFile != "" {
		raw, err := os.ReadFile(*receiptFile)
		if err != nil {
			fail("receipt: %v", err)
		}
		var answer struct {
			Receipt struct {
				LogIndex       uint64
				Entry          string
				Checkpoint     string
				InclusionProof []string
			}
		}
		if err := json.Unmarshal(raw, &answer); err != nil {
			fail("receipt: %v", err)
		}
		r := answer.Receipt
		cp := open([]byte(r.Checkpoint), verifier, latest.origin)
		proofHashes := hashes([]byte(`{"hashes":` + mustJSON(r.InclusionProof) + `}`))
		if err := proof.VerifyInclusion(hasher, r.LogIndex, cp.size, hasher.HashLeaf([]byte(r.Entry)), proofHashes, cp.root); err != nil {
			fail("receipt of entry %d in its checkpoint of size %d: %v", r.LogIndex, cp.size, err)
		}
		served := get(*base, fmt.Sprintf("/api/log/entries/%d", r.LogIndex))
		if !bytes.Equal(served, []byte(r.Entry)) {
			fail("entry %d served is not the receipt's entry", r.LogIndex)
		}
		if cp.size <= latest.size {
			cons := hashes(get(*base, fmt.Sprintf("/api/log/proof/consistency?from=%d&to=%d", cp.size, latest.size)))
			if err := proof.VerifyConsistency(hasher, cp.size, latest.size, cons, cp.root, latest.root); err != nil {
				fail("the receipt's checkpoint (size %d) is not consistent with the latest (size %d): %v", cp.size, latest.size, err)
			}
		}
		fmt.Printf("ok receipt: entry %d is in the signed tree of size %d, which the latest extends\n", r.LogIndex, cp.size)
	}

	if latest.size > 0 {
		rng := rand.New(rand.NewSource(int64(latest.size)))
		for i := 0; i < *samples; i++ {
			index := uint64(rng.Int63n(int64(latest.size)))
			entry := get(*base, fmt.Sprintf("/api/log/entries/%d", index))
			incl := hashes(get(*base, fmt.Sprintf("/api/log/proof/inclusion?index=%d&size=%d", index, latest.size)))
			if err := proof.VerifyInclusion(hasher, index, latest.size, hasher.HashLeaf(entry), incl, latest.root); err != nil {
				fail("entry %d: %v", index, err)
			}
		}
		fmt.Printf("ok %d random entries are included in the tree of size %d\n", *samples, latest.size)
	}

	if *since != "" {
		oldText, err := os.ReadFile(*since)
		if err != nil {
			fail("since: %v", err)
		}
		old := open(oldText, verifier, latest.origin)
		if old.size > latest.size {
			fail("the log shrank from %d to %d entries", old.size, latest.size)
		}
		cons := hashes(get(*base, fmt.Sprintf("/api/log/proof/consistency?from=%d&to=%d", old.size, latest.size)))
		if err := proof.VerifyConsistency(hasher, old.size, latest.size, cons, old.root, latest.root); err != nil {
			fail("consistency from %d to %d: %v", old.size, latest.size, err)
		}
		fmt.Printf("ok the tree of size %d is consistent with the earlier tree of size %d\n", latest.size, old.size)
	}

	if *save != "" {
		if err := os.WriteFile(*save, latestText, 0o644); err != nil {
			fail("save: %v", err)
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
