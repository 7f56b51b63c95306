// Imported first by `bin.ts`, so that the name is set before the app's modules take their time to load.
// On Linux it is also the thread name `ps -o comm` and `top` show (at most 15 characters).
process.title = "herald"
