import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { type AllowedAddresses, addressRefusal } from '../domain/webhookAddress.js';

/** Bytes of an endpoint's answer kept for the delivery log; the rest is not read. */
const ANSWER_BYTES_READ = 4096;

export interface SendLimits {
  /** The whole attempt (connect, send, first byte of the answer) must end within this. */
  timeoutMs: number;
  allowed: AllowedAddresses;
}

/** How an attempt ended: the endpoint's status, or why there was none. */
export type SendOutcome = { status: number; answer: string } | { status: null; error: string };

/** A refused address, distinct from a network failure (it is not worth retrying soon, but the operator may allow it). */
class RefusedAddressError extends Error {}

/**
 * Resolves the name, and refuses it unless every address it gives may be reached (a name
 * resolving to one public and one private address could be made to connect to either): the
 * check is made here, at connect time, on the addresses the socket will use.
 */
function checkedLookup(allowed: AllowedAddresses): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 4);
      const refusal = addresses.map(({ address }) => addressRefusal(address, allowed)).find((text) => text !== null);
      if (refusal !== undefined || addresses.length === 0) {
        return callback(new RefusedAddressError(refusal === undefined ? `${hostname} resolves to no address` : `${hostname}: ${refusal}`), '', 4);
      }
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      return first === undefined ? callback(new RefusedAddressError(`${hostname} resolves to no address`), '', 4) : callback(null, first.address, first.family);
    });
  };
}

/** Reads up to ANSWER_BYTES_READ of the answer, then lets the connection go. */
function readSome(response: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      response.destroy();
      resolve(Buffer.concat(chunks).subarray(0, ANSWER_BYTES_READ).toString('utf8'));
    };
    response.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= ANSWER_BYTES_READ) done();
    });
    response.on('end', done);
    response.on('error', done);
  });
}

/**
 * POSTs one webhook: never to an address the operator does not allow, no redirect followed,
 * bounded in time and in what is read back. Never rejects: a failure is an outcome.
 */
export function sendWebhook(url: string, headers: Record<string, string>, body: string, limits: SendLimits): Promise<SendOutcome> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  // A literal address is never looked up, so it is judged here.
  const refusal = isIP(host) === 0 ? null : addressRefusal(host, limits.allowed);
  if (refusal !== null) return Promise.resolve({ status: null, error: `refused: ${refusal}` });
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = request(target, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'matchlog-webhooks' },
      lookup: checkedLookup(limits.allowed),
      agent: false,
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${limits.timeoutMs} ms`)), limits.timeoutMs);
    req.on('response', (response) => {
      clearTimeout(timer);
      void readSome(response).then((answer) => resolve({ status: response.statusCode ?? 0, answer }));
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      resolve({ status: null, error: error instanceof RefusedAddressError ? `refused: ${error.message}` : error.message });
    });
    req.end(body);
  });
}
