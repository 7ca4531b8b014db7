/**
 * Classifies failures of etcd calls. grpc-js reports transport problems as UNAVAILABLE /
 * DEADLINE_EXCEEDED; etcd reports its own conditions as gRPC statuses with `etcdserver: ...`
 * details (see ../../../shared/reference/etcd-notes.md).
 */
import { status, type ServiceError } from '@grpc/grpc-js';

export function isServiceError(err: unknown): err is ServiceError {
  return err instanceof Error && typeof (err as Partial<ServiceError>).code === 'number';
}

/** The request never left this process (no connection): safe to send elsewhere, even a commit. */
export function notSent(err: unknown): boolean {
  return isServiceError(err) && err.code === status.UNAVAILABLE && /No connection established|ECONNREFUSED|connect/i.test(err.details);
}

/** Worth retrying an idempotent request on another member after a pause. */
export function transient(err: unknown): boolean {
  if (!isServiceError(err)) return false;
  if (err.code === status.UNAVAILABLE || err.code === status.DEADLINE_EXCEEDED || err.code === status.CANCELLED) return true;
  return /no leader|leader changed|request timed out|too many requests|not capable|timed out/i.test(err.details);
}

/** etcd refused the request before proposing it (nothing applied): a commit may be resent. */
export function rejectedBeforeApply(err: unknown): boolean {
  return isServiceError(err) && /too many requests|not capable/i.test(err.details);
}

export function isCompacted(err: unknown): boolean {
  return isServiceError(err) && /required revision has been compacted/.test(err.details);
}

export function isFutureRevision(err: unknown): boolean {
  return isServiceError(err) && /required revision is a future revision/.test(err.details);
}

export function isTooManyOps(err: unknown): boolean {
  return isServiceError(err) && /too many operations in txn request/.test(err.details);
}

export function isRequestTooLarge(err: unknown): boolean {
  return (
    isServiceError(err) &&
    (/request is too large/.test(err.details) || (err.code === status.RESOURCE_EXHAUSTED && /larger than max/.test(err.details)))
  );
}

export function isNoSpace(err: unknown): boolean {
  return isServiceError(err) && /database space exceeded/.test(err.details);
}

/** A short description for logs and error messages. */
export function describe(err: unknown): string {
  if (isServiceError(err)) return `${status[err.code] ?? err.code}: ${err.details}`;
  return err instanceof Error ? err.message : String(err);
}
