//! The guard, derived from the command line itself: every path argument of every command is
//! typed with its role, and every collision between two of a command's paths is refused before
//! the command runs, for every command there is, without a case written for any of them.

use super::role_of;
use kpk::output::guard::Role;
use std::path::{Path, PathBuf};

fn cli() -> clap::Command {
    <super::super::Cli as clap::CommandFactory>::command()
}

/// A folder of this test's own, empty.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kpk-guard-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Whether an argument's value name says that it names a file or folder.
fn names_a_path(arg: &clap::Arg) -> bool {
    let names = arg.get_value_names().unwrap_or_default();
    names.iter().any(|n| {
        let n = n.as_str();
        ["FILE", "DIR", "CSV", "CONFIG", "NET", "WEIGHTS", "METRICS"].iter().any(|w| n.contains(w))
            || n.contains('.')
    })
}

#[test]
fn every_argument_that_names_a_path_declares_its_role_by_its_type() {
    let mut paths = 0;
    for sub in cli().get_subcommands() {
        for arg in sub.get_arguments() {
            let id = arg.get_value_parser().type_id();
            let untyped = id == std::any::TypeId::of::<PathBuf>() || id == std::any::TypeId::of::<String>();
            let role = role_of(arg.get_value_parser());
            assert!(
                !(untyped && names_a_path(arg)) && id != std::any::TypeId::of::<PathBuf>(),
                "kpk {} --{}: a path argument must be InFile, InDir, OutFile, OutDir or OwnDir",
                sub.get_name(),
                arg.get_id()
            );
            paths += usize::from(role.is_some());
        }
    }
    assert!(paths >= 40, "only {paths} path arguments found");
}

/// One path argument of a command: how to name it on the command line, and its role.
#[derive(Clone)]
struct PathArg {
    id: String,
    long: Option<String>,
    role: Role,
}

impl PathArg {
    fn push(&self, argv: &mut Vec<String>, value: &Path) {
        if let Some(l) = &self.long {
            argv.push(format!("--{l}"));
        }
        argv.push(value.display().to_string());
    }
}

fn path_args(sub: &clap::Command) -> Vec<PathArg> {
    sub.get_arguments()
        .filter_map(|a| {
            role_of(a.get_value_parser()).map(|role| PathArg {
                id: a.get_id().to_string(),
                long: a.get_long().map(str::to_string),
                role,
            })
        })
        .collect()
}

/// The command line `kpk SUB` with `pair` given and every other required argument given a value
/// that passes its parser (a fresh path in `dir` for a path), and every positional one too when
/// clap says one is missing (required unless another is given).
fn argv(sub: &clap::Command, pair: [(&PathArg, &Path); 2], dir: &Path) -> Vec<String> {
    let line = argv_with(sub, pair, dir, false);
    match super::super::parse(&line) {
        Err(e) if e.kind() == clap::error::ErrorKind::MissingRequiredArgument => {
            argv_with(sub, pair, dir, true)
        }
        _ => line,
    }
}

fn argv_with(
    sub: &clap::Command,
    pair: [(&PathArg, &Path); 2],
    dir: &Path,
    positionals: bool,
) -> Vec<String> {
    let mut argv = vec!["kpk".to_string(), sub.get_name().to_string()];
    for (a, p) in pair {
        a.push(&mut argv, p);
    }
    for arg in sub.get_arguments().filter(|a| a.is_required_set() || (positionals && a.is_positional())) {
        let id = arg.get_id().as_str();
        if pair.iter().any(|(a, _)| a.id == id) {
            continue;
        }
        let value = match arg.get_possible_values().first() {
            _ if role_of(arg.get_value_parser()).is_some() => {
                dir.join(format!("fresh-{id}")).display().to_string()
            }
            Some(v) => v.get_name().to_string(),
            None => "1".to_string(),
        };
        if let Some(l) = arg.get_long() {
            argv.push(format!("--{l}"));
        }
        argv.push(value);
    }
    argv
}

fn is_dir(role: Role) -> bool {
    matches!(role, Role::InputFolder | Role::OutputFolder | Role::OwnedFolder)
}

/// The collisions of output `o` with the other path `x` (paths for `o`, then `x`), each made on
/// disk in `dir`: one path; a symlink and its target; two hard links; a file inside a folder.
fn collisions(o: &PathArg, x: &PathArg, dir: &Path) -> Vec<(String, PathBuf, PathBuf)> {
    let make = |name: &str, role: Role| {
        let p = dir.join(name);
        if is_dir(role) {
            std::fs::create_dir_all(&p).unwrap();
            std::fs::write(p.join("inner.toml"), "kept\n").unwrap();
        } else {
            std::fs::write(&p, "kept\n").unwrap();
        }
        p
    };
    let mut out = Vec::new();
    let x_path = make("x", x.role);
    out.push(("one path".to_string(), x_path.clone(), x_path.clone()));
    let link = dir.join("link");
    std::os::unix::fs::symlink(&x_path, &link).unwrap();
    out.push(("a symlink to it".to_string(), link, x_path.clone()));
    if !is_dir(x.role) && !is_dir(o.role) {
        let hard = dir.join("hard");
        std::fs::hard_link(&x_path, &hard).unwrap();
        out.push(("a hard link to it".to_string(), hard, x_path.clone()));
    }
    if o.role == Role::OutputFile && x.role == Role::InputFolder {
        out.push(("a file inside it".to_string(), x_path.join("inner.toml"), x_path.clone()));
    }
    if o.role == Role::OwnedFolder {
        let own = make("own", Role::OwnedFolder);
        let inner = own.join("inner");
        if is_dir(x.role) {
            std::fs::create_dir_all(&inner).unwrap();
        } else {
            std::fs::write(&inner, "kept\n").unwrap();
        }
        out.push(("it inside the owned folder".to_string(), own, inner));
    }
    out
}

/// Every (command, output, other path) of the command line, each collision of the two refused
/// by the guard (or by the command line when the two cannot be given together), and the same
/// command line with two fresh paths let through: the guard runs for a command added later, and
/// for a path argument added later, without a case written for it.
#[test]
fn every_collision_of_an_output_with_another_path_is_refused_before_any_work() {
    let base = scratch("derived");
    let (mut refused, mut cannot_be_given_together, mut pairs_seen) = (0, 0, Vec::new());
    for sub in cli().get_subcommands() {
        let args = path_args(sub);
        for o in args
            .iter()
            .filter(|a| matches!(a.role, Role::OutputFile | Role::OutputFolder | Role::OwnedFolder))
        {
            for x in args.iter().filter(|x| x.id != o.id) {
                let dir = base.join(format!("{}-{}-{}", sub.get_name(), o.id, x.id));
                std::fs::create_dir_all(&dir).unwrap();
                let fresh = argv(sub, [(o, &dir.join("fresh-o")), (x, &dir.join("fresh-x"))], &dir);
                let control = super::super::parse(&fresh);
                if let Err(e) = &control {
                    assert_eq!(e.kind(), clap::error::ErrorKind::ArgumentConflict, "{fresh:?}: {e}");
                    cannot_be_given_together += 1;
                    continue;
                }
                if let Ok(Err(e)) = control {
                    panic!("{fresh:?}: two fresh paths refused: {e}");
                }
                for (form, po, px) in collisions(o, x, &dir) {
                    let line = argv(sub, [(o, &po), (x, &px)], &dir);
                    match super::super::parse(&line) {
                        Ok(Err(kpk::Error::Output { .. })) => refused += 1,
                        Ok(Err(e)) => panic!("{line:?} ({form}): refused by another error: {e}"),
                        Ok(Ok(_)) => panic!("{line:?} ({form}): the collision is let through"),
                        Err(e) => panic!("{line:?} ({form}): {e}"),
                    }
                }
                pairs_seen.push(format!("{} --{} --{}", sub.get_name(), o.id, x.id));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&base);
    eprintln!(
        "{refused} collisions refused over {} pairs; {cannot_be_given_together} pairs cannot be given together",
        pairs_seen.len()
    );
    for must in [
        "compress-dtz --out --play",
        "compress-dtz --report --hybrid",
        "compress-dtz --out --syzygy",
        "study --results --studies",
        "study --results --configs",
        "learners --ship --design",
        "match --csv --figures",
    ] {
        assert!(pairs_seen.iter().any(|p| p == must), "{must} is not among the pairs: {pairs_seen:?}");
    }
    assert!(refused > 150, "{refused} collisions refused, {cannot_be_given_together} pairs in conflict");
}
