/**
 * TypeScript shapes of the etcd v3 messages ShaleDB sends and reads (proto/etcdserverpb/rpc.proto).
 * proto-loader runs with keepCase, longs: String, enums: Number, defaults: true, bytes: Buffer:
 * int64 fields arrive as decimal strings and bytes as Buffers. Requests may give int64 fields as
 * strings or numbers. Responses are decoded by protobufjs from the wire; `decode.ts` turns the
 * fields ShaleDB uses into checked values.
 */

export type Int64 = string | number;

export interface ResponseHeader {
  readonly revision: string;
  readonly member_id?: string;
}

export interface KeyValue {
  readonly key: Buffer;
  readonly value: Buffer;
  readonly create_revision: string;
  readonly mod_revision: string;
  readonly version: string;
  readonly lease: string;
}

export const SortOrder = { NONE: 0, ASCEND: 1, DESCEND: 2 } as const;
export const SortTarget = { KEY: 0, VERSION: 1, CREATE: 2, MOD: 3, VALUE: 4 } as const;
export const CompareResult = { EQUAL: 0, GREATER: 1, LESS: 2, NOT_EQUAL: 3 } as const;
export const CompareTarget = { VERSION: 0, CREATE: 1, MOD: 2, VALUE: 3, LEASE: 4 } as const;

export interface RangeRequest {
  key: Uint8Array;
  range_end?: Uint8Array;
  limit?: Int64;
  revision?: Int64;
  sort_order?: number;
  sort_target?: number;
  serializable?: boolean;
  keys_only?: boolean;
  count_only?: boolean;
}

export interface RangeResponse {
  readonly header: ResponseHeader;
  readonly kvs: readonly KeyValue[];
  readonly more: boolean;
  readonly count: string;
}

export interface PutRequest {
  key: Uint8Array;
  value: Uint8Array;
  lease?: Int64;
}

export interface DeleteRangeRequest {
  key: Uint8Array;
  range_end?: Uint8Array;
}

export interface Compare {
  result: number;
  target: number;
  key: Uint8Array;
  mod_revision?: Int64;
  create_revision?: Int64;
  version?: Int64;
}

export interface RequestOp {
  request_range?: RangeRequest;
  request_put?: PutRequest;
  request_delete_range?: DeleteRangeRequest;
  request_txn?: TxnRequest;
}

export interface TxnRequest {
  compare?: Compare[];
  success?: RequestOp[];
  failure?: RequestOp[];
}

export interface ResponseOp {
  readonly response_range?: RangeResponse | null;
  readonly response_txn?: TxnResponse | null;
}

export interface TxnResponse {
  readonly header: ResponseHeader;
  readonly succeeded: boolean;
  readonly responses: readonly ResponseOp[];
}

export interface CompactionRequest {
  revision: Int64;
  physical?: boolean;
}

export interface LeaseGrantRequest {
  TTL: Int64;
  ID?: Int64;
}

export interface LeaseGrantResponse {
  readonly header: ResponseHeader;
  readonly ID: string;
  readonly TTL: string;
  readonly error: string;
}

export interface LeaseKeepAliveResponse {
  readonly ID: string;
  readonly TTL: string;
}

export interface StatusResponse {
  readonly header: ResponseHeader;
  readonly version: string;
  readonly leader: string;
  readonly dbSize: string;
}

/** The unary methods ShaleDB calls, by service, with their request/response types. */
export interface UnaryMethods {
  Range: [RangeRequest, RangeResponse];
  Put: [PutRequest, { readonly header: ResponseHeader }];
  DeleteRange: [DeleteRangeRequest, { readonly header: ResponseHeader; readonly deleted: string }];
  Txn: [TxnRequest, TxnResponse];
  Compact: [CompactionRequest, { readonly header: ResponseHeader }];
  LeaseGrant: [LeaseGrantRequest, LeaseGrantResponse];
  LeaseRevoke: [{ ID: Int64 }, { readonly header: ResponseHeader }];
  Status: [Record<string, never>, StatusResponse];
}

export type UnaryMethod = keyof UnaryMethods;

/** Which gRPC service serves each unary method. */
export const SERVICE_OF: Readonly<Record<UnaryMethod, 'KV' | 'Lease' | 'Maintenance'>> = {
  Range: 'KV',
  Put: 'KV',
  DeleteRange: 'KV',
  Txn: 'KV',
  Compact: 'KV',
  LeaseGrant: 'Lease',
  LeaseRevoke: 'Lease',
  Status: 'Maintenance',
};
