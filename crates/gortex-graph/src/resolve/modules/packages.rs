//! The package table: Java, Kotlin and Scala packages, C# and PHP namespaces and Swift modules
//! (files by package name), and imports that name a package or a class in one.

use crate::build::SourceFile;
use crate::config::dir_of;
use crate::resolve::tables::{basename, Tables};
use crate::resolve::Entity;
use gortex_core::{ImportFact, Language};

/// A Swift file's module: the SwiftPM target its path names (`Sources/<Target>/…`, `Tests/<Target>/…`)
/// when a `Package.swift` sits above that folder, else the repository's unnamed module (`""`):
/// an Xcode project's `Sources/Views/` folder is a folder, not a target.
fn swift_module<'a>(file: &'a SourceFile, swiftpm_roots: &[&str]) -> &'a str {
    let in_target = swiftpm_roots.iter().any(|root| {
        let rest = match *root {
            "" => Some(&*file.path),
            root => file.path.strip_prefix(root).and_then(|p| p.strip_prefix('/')),
        };
        rest.is_some_and(|p| p.starts_with("Sources/") || p.starts_with("Tests/"))
    });
    match &file.facts.package {
        Some(module) if in_target => module.as_str(),
        _ => "",
    }
}

/// SwiftPM packages: the directories holding a `Package.swift`.
pub(in crate::resolve) fn swiftpm_roots(files: &[SourceFile]) -> Vec<&str> {
    files
        .iter()
        .filter(|f| basename(&f.path) == "Package.swift")
        .map(|f| dir_of(&f.path))
        .collect()
}

/// Languages whose files join the package table by their declared package or namespace.
pub(in crate::resolve) fn uses_java_packages(language: Language) -> bool {
    matches!(
        language,
        Language::Java | Language::CSharp | Language::Kotlin | Language::Php | Language::Scala
    )
}

/// The file's key in the package table: its Java/C#/Kotlin/PHP/Scala package or namespace, or
/// its Swift module (the two share the table: files by package name).
pub(in crate::resolve) fn package_key<'f>(file: &'f SourceFile, swiftpm_roots: &[&str]) -> Option<&'f str> {
    match file.language {
        Language::Swift => Some(swift_module(file, swiftpm_roots)),
        language if uses_java_packages(language) => file.facts.package.as_deref(),
        _ => None,
    }
}

impl Tables<'_> {
    /// A package's files, a class named by a static import (`a.b.C.m` → `C`), else external.
    pub(super) fn resolve_java_import(&self, imp: &ImportFact) -> Entity {
        match self.java_pkg(imp.module.as_str()) {
            Some(files) => Entity::Files(files.clone()),
            None => {
                // `import static a.b.C.m` names a class as the module: find the class.
                if let Some((pkg, class)) = imp.module.rsplit_once('.') {
                    if let Some(files) = self.java_pkg(pkg) {
                        for &f in files {
                            if let Some(&si) = self.top_of(f, class).and_then(|v| v.first()) {
                                return Entity::Sym((f, si));
                            }
                        }
                    }
                }
                Entity::External(imp.module.clone())
            }
        }
    }
}
