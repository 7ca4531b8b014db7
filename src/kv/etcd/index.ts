export { EtcdStore, type EtcdStoreOptions } from './etcd-store.js';
export { parseEtcdUrl, type EtcdUrl } from './url.js';
