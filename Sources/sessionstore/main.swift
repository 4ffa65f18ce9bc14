import SessionStoreCommand

SessionStore.main()
