/**
 * Loads proto/etcdserverpb/rpc.proto (our subset of etcd v3.4's API) once and exposes each
 * method's gRPC path and (de)serializers, so one generic grpc-js Client per endpoint can call
 * any service on its channel.
 */
import { fileURLToPath } from 'node:url';
import { loadSync, type MethodDefinition, type PackageDefinition } from '@grpc/proto-loader';

/** proto/ at the repository root: three levels up from src/kv/etcd/ and from dist/kv/etcd/. */
export const PROTO_DIR = fileURLToPath(new URL('../../../proto/', import.meta.url));

export interface MethodCodec {
  readonly path: string;
  readonly serialize: (value: unknown) => Buffer;
  readonly deserialize: (bytes: Buffer) => unknown;
}

let loaded: PackageDefinition | undefined;

function definitions(): PackageDefinition {
  loaded ??= loadSync('etcdserverpb/rpc.proto', {
    includeDirs: [PROTO_DIR],
    keepCase: true,
    longs: String,
    enums: Number,
    defaults: true,
    oneofs: true,
  });
  return loaded;
}

/** The codec of `service`.`method` (e.g. 'KV', 'Txn'); throws if the proto lacks it. */
export function methodCodec(service: string, method: string): MethodCodec {
  const svc = definitions()[`etcdserverpb.${service}`];
  if (svc === undefined || !(method in svc)) throw new Error(`etcd proto has no ${service}.${method}`);
  const def = (svc as Record<string, MethodDefinition<unknown, unknown>>)[method];
  if (def === undefined) throw new Error(`etcd proto has no ${service}.${method}`);
  return { path: def.path, serialize: def.requestSerialize, deserialize: def.responseDeserialize };
}
