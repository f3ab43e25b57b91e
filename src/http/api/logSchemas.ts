import { Type } from '@sinclair/typebox';
import { Revision } from '../querySchemas.js';

/** Schemas of the transparency log's answers (docs/auditing.md). */

const Base64Hash = Type.String({ description: 'A SHA-256 hash, base64.' });

export const ProofResponse = Type.Object({
  hashes: Type.Array(Base64Hash, { description: "The proof's hashes in RFC 6962 / RFC 9162 order." }),
});

export const InclusionQuery = Type.Object({
  index: Type.Integer({ minimum: 0, description: "The leaf's index." }),
  size: Type.Integer({ minimum: 1, description: 'The tree size of a checkpoint.' }),
});

export const ConsistencyQuery = Type.Object({
  from: Type.Integer({ minimum: 0, description: "The older checkpoint's tree size." }),
  to: Type.Integer({ minimum: 0, description: "The newer checkpoint's tree size." }),
});

export const EntryParams = Type.Object({ index: Type.Integer({ minimum: 0 }) });

export const PayloadQuery = Type.Object({ revision: Revision("The version's stream revision.") });

export const Receipt = Type.Object(
  {
    logIndex: Type.Union([Type.Integer(), Type.Null()], {
      description: "The version's leaf index; null when the log had not taken it in yet (READ_YOUR_WRITES_TIMEOUT_MS).",
    }),
    entry: Type.String({ description: "The leaf's entry: canonical JSON, hashed as SHA-256(0x00 ‖ entry)." }),
    checkpoint: Type.Union([Type.String(), Type.Null()], { description: 'A signed checkpoint (C2SP signed note) of a tree that includes the leaf.' }),
    inclusionProof: Type.Union([Type.Array(Base64Hash), Type.Null()], { description: "The leaf's inclusion proof in that checkpoint's tree." }),
    cosigned: Type.Boolean({ description: "Whether the checkpoint carries the cosignatures of the log's witnesses' quorum (never, with no witnesses)." }),
    proofUrl: Type.Union([Type.String(), Type.Null()], {
      description: "GET it for the newest checkpoint (cosigned, with witnesses) and the leaf's inclusion proof in it; null until the leaf has an index.",
    }),
    payloadSalt: Type.Optional(
      Type.String({
        description:
          "An upload that stored a version: the version's salt (base64). SHA-256(salt ‖ the stored bytes) is the entry's payloadSha256, " +
          'so the receipt with the uploaded bytes proves the upload alone, after an erasure too (the server then keeps no salt). Keep it.',
      }),
    ),
  },
  { description: 'Proof of what the log accepted: verify the checkpoint with GET /api/log/key and the proof with any RFC 6962 library (docs/auditing.md).' },
);

export const EntryProofResponse = Type.Object({
  checkpoint: Type.String({ description: "The log's newest checkpoint (with witnesses: the newest its witnesses' quorum cosigned), a C2SP signed note." }),
  inclusionProof: Type.Array(Base64Hash, { description: "The leaf's inclusion proof in that checkpoint's tree." }),
});
