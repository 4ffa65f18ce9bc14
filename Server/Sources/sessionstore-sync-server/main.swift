import SyncServer

await SyncServerCommand.runFromCommandLine()
