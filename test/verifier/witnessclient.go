package main

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"strings"

	cosig "github.com/transparency-dev/formats/note"
	"github.com/transparency-dev/merkle/rfc6962"
	"github.com/transparency-dev/merkle/testonly"
	"golang.org/x/mod/sumdb/note"
)

// submit acts as a log's witness client, written against c2sp.org/tlog-witness: it grows a
// tree of its own, signs each checkpoint with logSigner, submits it to the witness at url with
// a consistency proof, and verifies the cosignature it gets back with witnessKey.
func submit(url, logSigner, witnessKey string) {
	signer, err := note.NewSigner(logSigner)
	if err != nil {
		fail("log signer key: %v", err)
	}
	witness, err := cosig.NewVerifierForCosignatureV1(witnessKey)
	if err != nil {
		fail("witness key: %v", err)
	}
	logKey := logVerifierOf(logSigner)
	tree := testonly.New(rfc6962.DefaultHasher)
	post := func(old, size uint64, proof [][]byte) (int, string, []byte) {
		for tree.Size() < size {
			tree.AppendData([]byte(fmt.Sprintf("entry %d", tree.Size())))
		}
		text := fmt.Sprintf("%s\n%d\n%s\n", signer.Name(), size, base64.StdEncoding.EncodeToString(tree.HashAt(size)))
		signed, err := note.Sign(&note.Note{Text: text}, signer)
		if err != nil {
			fail("sign: %v", err)
		}
		var body bytes.Buffer
		fmt.Fprintf(&body, "old %d\n", old)
		for _, h := range proof {
			fmt.Fprintf(&body, "%s\n", base64.StdEncoding.EncodeToString(h))
		}
		body.WriteString("\n")
		body.Write(signed)
		resp, err := http.Post(url+"/add-checkpoint", "text/plain", &body)
		if err != nil {
			fail("POST add-checkpoint: %v", err)
		}
		defer resp.Body.Close()
		answer, _ := io.ReadAll(resp.Body)
		if resp.StatusCode == http.StatusOK {
			cosigned := append(signed, answer...)
			if _, err := note.Open(cosigned, note.VerifierList(logKey, witness)); err != nil {
				fail("the cosigned checkpoint of size %d: %v", size, err)
			}
		}
		return resp.StatusCode, resp.Header.Get("Content-Type"), answer
	}
	proof := func(from, to uint64) [][]byte {
		for tree.Size() < to {
			tree.AppendData([]byte(fmt.Sprintf("entry %d", tree.Size())))
		}
		p, err := tree.ConsistencyProof(from, to)
		if err != nil {
			fail("consistency proof: %v", err)
		}
		return p
	}

	if status, _, answer := post(0, 3, nil); status != 200 {
		fail("first checkpoint: %d %s", status, answer)
	}
	fmt.Println("ok the witness cosigned the first checkpoint (size 3)")
	status, contentType, answer := post(0, 7, nil)
	if status != 409 || contentType != "text/x.tlog.size" || string(answer) != "3\n" {
		fail("a stale old size: %d %q %q", status, contentType, answer)
	}
	fmt.Println("ok a stale old size is answered 409 text/x.tlog.size with the witness's size")
	bad := proof(3, 7)
	bad[0] = bytes.Repeat([]byte{1}, 32)
	if status, _, answer := post(3, 7, bad); status != 422 {
		fail("a bad consistency proof: %d %s", status, answer)
	}
	fmt.Println("ok a bad consistency proof is answered 422")
	if status, _, answer := post(3, 7, proof(3, 7)); status != 200 {
		fail("a grown checkpoint: %d %s", status, answer)
	}
	fmt.Println("ok the witness cosigned the grown checkpoint (size 7), and its cosignature verifies")
}

// logVerifierOf derives the verifier of a note signer key, as note.GenerateKey would print it.
func logVerifierOf(signerKey string) note.Verifier {
	parts := strings.SplitN(signerKey, "+", 5)
	key, err := base64.StdEncoding.DecodeString(parts[4])
	if err != nil || len(key) != 33 {
		fail("log signer key")
	}
	_, vkey, err := note.GenerateKey(bytes.NewReader(key[1:]), parts[2])
	if err != nil {
		fail("log verifier key: %v", err)
	}
	v, err := note.NewVerifier(vkey)
	if err != nil {
		fail("log verifier key: %v", err)
	}
	return v
}
