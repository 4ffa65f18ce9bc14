// The one import an app needs: `import SessionStore` brings every layer's
// public API. GRDB stays out of it: the storage layer imports GRDB internally.
@_exported import SessionConsumers
@_exported import SessionMediators
@_exported import SessionModel
@_exported import SessionStorage
