module matchlog.test/verifier

go 1.26.0

require (
	github.com/transparency-dev/merkle v0.0.2
	golang.org/x/mod v0.43.0
)
