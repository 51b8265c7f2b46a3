//! Declarations that refer to themselves through a merged namespace must resolve without
//! recursing forever (a stack overflow aborts the whole process — the daemon with it).

mod common;

use common::{index, options, write_file};

#[test]
fn a_class_implementing_a_member_of_its_own_namespace_resolves() {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let root = work.path().join("app");
    // Reduced from TypeScript 4.8.4's tests/cases/compiler/bluebirdStaticThis.ts.
    write_file(
        &root,
        "promise.ts",
        r#"export declare class Promise<R> implements Promise.Thenable<R> {
    static try<R>(dit: typeof Promise, fn: () => R): Promise<R>;
    then<U>(onFulfilled: (value: R) => U): Promise<U>;
}
export declare module Promise {
    export interface Thenable<R> {
        then<U>(onFulfilled: (value: R) => Thenable<U>): Thenable<U>;
    }
}
var fooProm: Promise<number>;
fooProm = Promise.try(Promise, () => 1);
fooProm.then((v) => v + 1).then((w) => w);
"#,
    );
    let (repo, _) = index(&root, &options(home.path()));
    assert!(repo.graph.node("app/promise.ts::Promise").is_some());
}
