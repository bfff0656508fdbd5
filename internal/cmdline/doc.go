// Package cmdline is what the command-line programs chiptool and
// chipdesk share: the environment a subcommand may touch (Env), the
// subcommand table (Command), the exit-status contract (Exit,
// UsageError, Run, Main) and the parsing of flags that stand before,
// between or after positional arguments (ParseArgs, ParseCommand).
//
// The exit status is 0 on success and on -h, 1 when a command fails and
// 2 on a bad command line.
//
// # References
//
//   - POSIX.1-2017 (IEEE Std 1003.1), Base Definitions, 12.2 Utility
//     Syntax Guidelines, guideline 10: the first "--" that is not an
//     option-argument ends the options; later arguments are operands.
//   - POSIX.1-2017, Shell and Utilities, 2.8.2 Exit Status for Commands;
//     the Go flag package documentation for the flag syntax
//     (-flag, -flag=x, -flag x for non-boolean flags, "--" terminator).
package cmdline
