//! The types of every path argument: a command names a file or folder only through one of them,
//! so that the guard of [`kpk::output::guard`] sees every path it reads or writes, declared by
//! the argument's type, and checks them all before the command starts ([`guard`]).

use clap::builder::{PathBufValueParser, TypedValueParser, ValueParserFactory};
use kpk::output::guard::{Clash, Collision, Named, Role};
use std::any::TypeId;
use std::path::{Path, PathBuf};

macro_rules! path_type {
    ($(#[$doc:meta])* $name:ident, $role:expr) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct $name(pub PathBuf);

        impl std::ops::Deref for $name {
            type Target = Path;
            fn deref(&self) -> &Path {
                &self.0
            }
        }

        impl AsRef<Path> for $name {
            fn as_ref(&self) -> &Path {
                &self.0
            }
        }

        impl ValueParserFactory for $name {
            type Parser = clap::builder::MapValueParser<PathBufValueParser, fn(PathBuf) -> $name>;
            fn value_parser() -> Self::Parser {
                PathBufValueParser::new().map($name as fn(PathBuf) -> $name)
            }
        }

        impl From<$name> for PathBuf {
            fn from(p: $name) -> PathBuf {
                p.0
            }
        }

        impl $name {
            pub const ROLE: Role = $role;
        }
    };
}

path_type!(
    /// A file the command reads.
    InFile,
    Role::InputFile
);
path_type!(
    /// A folder whose files the command reads (a folder of configs).
    InDir,
    Role::InputFolder
);
path_type!(
    /// A file the command writes (`-`: standard output where the command allows it).
    OutFile,
    Role::OutputFile
);
path_type!(
    /// A folder the command writes named entries into (`reports/`), leaving the rest.
    OutDir,
    Role::OutputFolder
);
path_type!(
    /// A folder the command writes whole: a run folder it replaces, a folder of its figures.
    OwnDir,
    Role::OwnedFolder
);

/// The role of an argument by the type its parser yields, or `None` when it names no path.
pub fn role_of(parser: &clap::builder::ValueParser) -> Option<Role> {
    let id = parser.type_id();
    [
        (TypeId::of::<InFile>(), InFile::ROLE),
        (TypeId::of::<InDir>(), InDir::ROLE),
        (TypeId::of::<OutFile>(), OutFile::ROLE),
        (TypeId::of::<OutDir>(), OutDir::ROLE),
        (TypeId::of::<OwnDir>(), OwnDir::ROLE),
    ]
    .into_iter()
    .find_map(|(t, role)| (id == t).then_some(role))
}

/// Every path a parsed command names (given or by default), with its role, from the types of
/// its arguments.
fn named(command: &clap::Command, matches: &clap::ArgMatches) -> Vec<Named> {
    let mut out = Vec::new();
    for arg in command.get_arguments() {
        let id = arg.get_id().as_str();
        let Some(role) = role_of(arg.get_value_parser()) else { continue };
        let paths: Vec<PathBuf> = match role {
            Role::InputFile => values::<InFile>(matches, id),
            Role::InputFolder => values::<InDir>(matches, id),
            Role::OutputFile => values::<OutFile>(matches, id),
            Role::OutputFolder => values::<OutDir>(matches, id),
            Role::OwnedFolder => values::<OwnDir>(matches, id),
        };
        let flag = arg.get_long().map_or_else(|| id.to_uppercase(), |l| format!("--{l}"));
        out.extend(paths.into_iter().map(|path| Named { arg: flag.clone(), role, path }));
    }
    out
}

fn values<T: Clone + Send + Sync + 'static + AsRef<Path>>(m: &clap::ArgMatches, id: &str) -> Vec<PathBuf> {
    match m.try_get_many::<T>(id) {
        Ok(Some(vs)) => vs.map(|v| v.as_ref().to_path_buf()).collect(),
        _ => Vec::new(),
    }
}

/// The guard, for the subcommand `matches` names: every path of its arguments checked against
/// the others before the command runs.
pub fn guard(cli: &clap::Command, matches: &clap::ArgMatches) -> kpk::Result<()> {
    let Some((name, sub)) = matches.subcommand() else { return Ok(()) };
    let Some(command) = cli.find_subcommand(name) else { return Ok(()) };
    match kpk::output::guard::check(&named(command, sub)) {
        None => Ok(()),
        Some(c) => Err(kpk::Error::Output { path: c.output.path.display().to_string(), reason: reason(&c) }),
    }
}

/// Why a collision is refused, naming both arguments.
fn reason(c: &Collision) -> String {
    let (a, b) = (&c.output.arg, &c.other.arg);
    let what = match c.clash {
        Clash::Same if c.other.role.is_output() => {
            format!("is named by two outputs of this command ({a} and {b})")
        }
        Clash::Same => format!("is also an input of this command ({a} and {b}): writing it would destroy it"),
        Clash::InsideOwned => {
            let other = if c.other.role.is_output() { "another output" } else { "an input" };
            format!(
                "is a folder this command writes whole ({a}), and {other} ({b} {}) lies inside it",
                c.other.path.display()
            )
        }
        Clash::InsideInputFolder => {
            format!("lies inside {} ({b}), a folder whose files this command reads", c.other.path.display())
        }
    };
    format!("{what}; give each its own path")
}

#[cfg(test)]
mod tests;
