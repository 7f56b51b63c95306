// Imported first by `bin.ts`, so that both hold before the app's modules take their time to load.
// On Linux it is also the thread name `ps -o comm` and `top` show (at most 15 characters).
process.title = "herald"

// Files and folders Herald makes (media, the admin socket, the embedded database's folders) are its user's
// alone, whatever the shell's umask. PGlite sets its own files' modes (666); the data folder, 700, keeps
// other users from them (DataDirLock).
process.umask(0o077)
