//! Golden caller → callee facts for each resolver rule, one fixture repository per language
//! under `test/fixtures/resolver/<lang>/`. Each fixture's `golden.txt` holds every resolved
//! non-structural edge and unresolved reference (`E from -kind-> to tier Lline`), so a wrong
//! binding, a lost binding or a changed tier all fail. Regenerate with GORTEX_UPDATE_GOLDEN=1
//! and review the diff.

mod common;

use common::*;

fn check(lang: &str) {
    let root = fixtures().join("resolver").join(lang);
    let home = tempfile::tempdir().unwrap();
    let mut opts = options(home.path());
    opts.persist = false;
    let (index, report) = index(&root, &opts);
    assert!(
        report.failures.is_empty(),
        "{lang}: parse failures {:?}",
        report.failures
    );
    let actual = resolution_lines(&index).join("\n") + "\n";
    let golden_path = root.join("golden.txt");
    if std::env::var("GORTEX_UPDATE_GOLDEN").is_ok() {
        std::fs::write(&golden_path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&golden_path).unwrap_or_default();
    if expected != actual {
        let exp: Vec<&str> = expected.lines().collect();
        let act: Vec<&str> = actual.lines().collect();
        let missing: Vec<&&str> = exp.iter().filter(|l| !act.contains(l)).collect();
        let extra: Vec<&&str> = act.iter().filter(|l| !exp.contains(l)).collect();
        panic!("{lang}: resolution differs from golden.txt\nmissing:\n{missing:#?}\nunexpected:\n{extra:#?}");
    }
}

#[test]
fn typescript_imports_barrels_paths_workspaces_and_receivers() {
    check("ts");
}

#[test]
fn python_packages_relative_imports_and_inheritance() {
    check("py");
}

#[test]
fn go_packages_by_module_path_and_receiver_types() {
    check("go");
}

#[test]
fn rust_modules_use_paths_and_impls() {
    check("rust");
}

#[test]
fn java_packages_imports_and_hierarchy() {
    check("java");
}

#[test]
fn c_and_cpp_includes_headers_sources_and_classes() {
    check("cfamily");
}

#[test]
fn csharp_namespaces_usings_and_hierarchy() {
    check("csharp");
}

#[test]
fn kotlin_packages_imports_companions_and_extensions() {
    check("kotlin");
}

#[test]
fn swift_modules_imports_extensions_and_conformances() {
    check("swift");
}

#[test]
fn php_namespaces_uses_traits_and_this() {
    check("php");
}

#[test]
fn ruby_requires_modules_and_mixins() {
    check("ruby");
}

/// Spot checks that state the rules in words, so a golden regenerated carelessly still fails.
#[test]
fn lua_requires_module_tables_and_self() {
    check("lua");
}

#[test]
fn bash_sourced_scripts_functions_and_programs() {
    check("bash");
}

#[test]
fn scala_packages_imports_case_classes_and_this() {
    check("scala");
}

#[test]
fn generic_tier_binds_names_within_the_language() {
    check("generic");
}

#[test]
fn components_protos_sql_dockerfiles_and_manifests() {
    check("polyglot");
}

#[test]
fn key_facts_hold() {
    let home = tempfile::tempdir().unwrap();
    let mut opts = options(home.path());
    opts.persist = false;
    let facts: &[(&str, &str)] = &[
        // TS: barrel re-export chain lands on the declaration, not on the barrel.
        ("ts", "E ts/src/app.ts::App.start -calls-> ts/src/lib/util.ts::helper ast_resolved L22"),
        // TS: tsconfig `paths` alias.
        ("ts", "E ts/src/app.ts::App.start -calls-> ts/src/lib/store.ts::openStore ast_resolved L24"),
        // TS: workspace package `exports`.
        ("ts", "E ts/src/app.ts::App.start -calls-> ts/packages/core/src/index.ts::coreFn ast_resolved L26"),
        // TS: receiver typed by a constructor parameter property.
        ("ts", "E ts/src/app.ts::App.start -calls-> ts/src/lib/store.ts::Store.save ast_resolved L18"),
        // TS: inherited method through `this`.
        ("ts", "E ts/src/app.ts::App.start -calls-> ts/src/app.ts::Base.run ast_resolved L19"),
        // TS: receiver inferred from a declared return type is only ast_inferred.
        ("ts", "E ts/src/app.ts::App.start -calls-> ts/src/lib/store.ts::Store.validate ast_inferred L21"),
        // TS: an untyped receiver earns no more than text_matched.
        ("ts", "E ts/src/app.ts::unknownReceiver -calls-> ts/src/lib/store.ts::Store.validate text_matched L32"),
        ("ts", "E ts/src/app.test.ts::store.opens -tests-> ts/src/lib/store.ts::openStore ast_resolved L5"),
        // TS: namespace blocks merge across files (unqualified, nested and qualified access).
        ("ts", "E ts/src/ns/use.ts::acme.user -calls-> ts/src/ns/core.ts::acme.shared ast_resolved L3"),
        ("ts", "E ts/src/ns/use.ts::acme.user -calls-> ts/src/ns/core.ts::acme.inner.deep ast_resolved L3"),
        ("ts", "E ts/src/ns/use.ts::other.outsider -calls-> ts/src/ns/core.ts::acme.shared ast_resolved L9"),
        ("py", "E py/pkg/models.py::Admin.promote -calls-> py/pkg/models.py::User.save ast_resolved L13"),
        ("py", "E py/main.py::main -calls-> py/pkg/service.py::create ast_resolved L7"),
        ("py", "E py/pkg/service.py::create -calls-> py/pkg/models.py::Admin.promote ast_inferred L16"),
        ("go", "E go/main.go::main -calls-> go/store/store.go::Open ast_resolved L10"),
        ("go", "E go/main.go::main -calls-> go/store/close.go::Store.Close ast_inferred L12"),
        ("go", "E go/store/close.go::Store.Close -calls-> go/store/store.go::DB.Query ast_resolved L4"),
        ("go", "E go/main.go::main -calls-> go/helper.go::helper ast_resolved L13"),
        ("rust", "E rust/src/lib.rs::run -calls-> rust/src/util.rs::helper ast_resolved L10"),
        ("rust", "E rust/src/util.rs::helper -calls-> rust/src/store.rs::open ast_resolved L2"),
        ("rust", "E rust/src/store.rs::Store -implements-> rust/src/store.rs::Named ast_resolved L23"),
        ("java", "E java/src/main/java/com/acme/App.java::App.run -calls-> java/src/main/java/com/acme/store/BaseStore.java::BaseStore.close ast_resolved L10"),
        ("java", "E java/src/main/java/com/acme/App.java::App.run -calls-> java/src/main/java/com/acme/App.java::App.helper ast_resolved L13"),
        // Call chains follow each call's own receiver: `store.self().get()`, `new Store().self().self().get()`,
        // `store.Open().DB().Query()`, `make_admin().owner().validate()`, `openStore().self().validate()`.
        ("java", "E java/src/main/java/com/acme/App.java::App.run -calls-> java/src/main/java/com/acme/store/Store.java::Store.get ast_inferred L14"),
        ("java", "E java/src/main/java/com/acme/App.java::App.run -calls-> java/src/main/java/com/acme/store/Store.java::Store.get ast_inferred L15"),
        ("go", "E go/main.go::chain -calls-> go/store/store.go::DB.Query ast_inferred L31"),
        ("py", "E py/pkg/service.py::Desk.chain -calls-> py/pkg/models.py::User.validate ast_inferred L24"),
        ("ts", "E ts/src/app.ts::chains -calls-> ts/src/lib/store.ts::Store.validate ast_inferred L36"),
        ("ts", "E ts/src/app.ts::chains -calls-> ts/src/lib/store.ts::Store.validate ast_inferred L38"),
        // Python: an unannotated function returning one class is typed by it; `mod.Cls()` binds
        // the class through the module; a method call on an untyped receiver is not guessed.
        ("py", "E py/main.py::desks -calls-> py/pkg/service.py::Desk.chain ast_inferred L14"),
        ("py", "E py/main.py::desks -calls-> py/pkg/service.py::Desk.chain ast_inferred L16"),
        ("py", "U py/main.py::untyped -calls-> unresolved::*.promote L20 c1"),
        // `this.a.b.m()` / `self.a.b.m()`: a path of fields from the enclosing type.
        ("py", "E py/pkg/service.py::Office.work -calls-> py/pkg/models.py::Admin.promote ast_resolved L33"),
        // A qualified name's head resolves outward through the enclosing namespaces to a dotted
        // block of its own (`kit.Kit` in `acme.tools` is `acme.tools.kit.Kit`), a path walks
        // into dotted blocks, and a script's namespace is global (seen from a module too).
        ("ts", "E ts/src/ns/use.ts::acme.tools.useKit -calls-> ts/src/ns/services.ts::acme.tools.kit.Kit.run ast_resolved L16"),
        ("ts", "E ts/src/ns/use.ts::acme.tools.useKit -typed_as-> ts/src/ns/services.ts::acme.tools.kit.Kit ast_resolved L15"),
        ("ts", "E ts/src/ns/use.ts::other.viaPath -calls-> ts/src/ns/services.ts::acme.tools.kit.Kit.make ast_resolved L22"),
        ("ts", "E ts/src/lib/util.ts::viaGlobal -calls-> ts/src/ns/core.ts::acme.inner.deep ast_resolved L9"),
        // No guess by name where the name says little: the runtime's prototype methods on an
        // untyped receiver, a receiver declared with a type nothing here declares, a free
        // function reached as a member of a value, a field called bare.
        ("ts", "U ts/src/app.ts::untypedCalls -calls-> unresolved::*.call L54 c1"),
        ("ts", "U ts/src/app.ts::untypedCalls -calls-> unresolved::*.send L55 c0"),
        ("ts", "U ts/src/app.ts::untypedCalls -calls-> unresolved::*.tally L56 c1"),
        ("ts", "U ts/src/app.ts::untypedCalls -calls-> unresolved::ring L57 c1"),
        // A member a type does not declare is its library base's (an embedded `fmt.Stringer`);
        // a bare Go call is never guessed (a method of another package is no bare call).
        ("go", "E go/main.go::embedded -calls-> external::fmt.Stringer.GoString ast_resolved L45"),
        ("go", "U go/main.go::embedded -calls-> unresolved::lookup L46 c1"),
        // A Java cast types its receiver; a declared library type gets no namesake.
        ("java", "E java/src/main/java/com/acme/App.java::App.casts -calls-> java/src/main/java/com/acme/store/Store.java::Store.get ast_inferred L26"),
        ("java", "U java/src/main/java/com/acme/App.java::App.casts -calls-> unresolved::*.length L27 c0"),
        ("java", "U java/src/main/java/com/acme/App.java::App.casts -calls-> unresolved::*.getKey L28 c0"),
        // A field any method types (`self.keeper = self.admin_class()`, the class attribute
        // `admin_class = Admin`) is declared and typed for subclasses in other files.
        ("py", "E py/test_service.py::TestCounter.test_keeper -calls-> py/pkg/models.py::Admin.promote ast_resolved L13"),
        // A callback's parameters are typed by the callee's declared callback type (method,
        // function and constructor); a parameter's default value types it.
        ("ts", "E ts/src/app.ts::callbacks -calls-> ts/src/lib/store.ts::Store.validate ast_inferred L42"),
        ("ts", "E ts/src/app.ts::callbacks -calls-> ts/src/lib/store.ts::Store.save ast_inferred L44"),
        ("ts", "E ts/src/app.ts::callbacks -calls-> ts/src/lib/store.ts::Store.validate ast_inferred L46"),
        ("ts", "E ts/src/app.ts::defaults -calls-> ts/src/lib/store.ts::Store.validate ast_resolved L50"),
        // A bare call of a callback parameter is no method named alike elsewhere (`run(…)` is not `Base.run`).
        ("ts", "U ts/src/lib/store.ts::Task.constructor -calls-> unresolved::run L25 c0"),
        // C: `<kv/kv.h>` found on the compile_commands.json include path (not legacy/kv/kv.h),
        // and the call lands on the definition in the header's source, not on the prototype.
        ("cfamily", "E cfamily/app/main.c -imports-> cfamily/include/kv/kv.h ast_resolved L2"),
        ("cfamily", "E cfamily/app/main.c::main -calls-> cfamily/src/kv.c::kv_open ast_resolved L5"),
        ("cfamily", "E cfamily/src/kv.c::kv_flush -calls-> cfamily/src/internal.c::internal_sync ast_resolved L6"),
        // C: `typedef struct kv_store {…} kv_store;` is one type; its function-pointer member is called.
        ("cfamily", "E cfamily/src/kv.c::kv_put -calls-> cfamily/include/kv/types.h::kv_store.flush ast_resolved L18"),
        // C: a header included through another header is visible (transitive includes).
        ("cfamily", "E cfamily/src/kv.c::kv_open -returns-> cfamily/include/kv/types.h::kv_store ast_resolved L9"),
        // C++: out-of-line methods join their class; inherited, implicit-this and this-> calls.
        ("cfamily", "E cfamily/app/main.cpp::run -calls-> cfamily/src/shapes.cpp::Circle.make ast_resolved L5"),
        ("cfamily", "E cfamily/app/main.cpp::run -calls-> cfamily/src/shapes.cpp::Shape.scaled ast_resolved L7"),
        ("cfamily", "E cfamily/src/shapes.cpp::Circle.area -calls-> cfamily/include/kv/shapes.h::geo.Shape.unit ast_resolved L8"),
        ("cfamily", "E cfamily/src/shapes.cpp::Shape.scaled -calls-> cfamily/include/kv/shapes.h::geo.Shape.area ast_resolved L17"),
        // C++: a member used without `this->` inside an out-of-line method is the class's field.
        ("cfamily", "E cfamily/src/shapes.cpp::Canvas.paint -calls-> cfamily/src/shapes.cpp::Circle.area ast_resolved L29"),
        // C++: namespace blocks merge across files (`geo::util::twice` declared in the header's
        // block, defined in the source's).
        ("cfamily", "E cfamily/app/main.cpp::run -calls-> cfamily/src/shapes.cpp::geo.util.twice ast_resolved L10"),
        ("cfamily", "E cfamily/app/main.cpp::run -instantiates-> cfamily/include/kv/shapes.h::geo.Circle ast_resolved L6"),
        // C#: `using A.B;` imports a namespace; an alias (`using Mem = A.B.C;`) binds a type;
        // a nested namespace sees its enclosing one's types without a using.
        ("csharp", "E csharp/src/App/App.cs::App.Run -calls-> csharp/src/Store/MemoryStore.cs::MemoryStore.Save ast_resolved L15"),
        ("csharp", "E csharp/src/App/App.cs::App.Run -calls-> csharp/src/Store/IStore.cs::IStore.Save ast_resolved L16"),
        ("csharp", "E csharp/src/App/App.cs::Deep.Go -calls-> csharp/src/App/Helper.cs::Helper.Twice ast_resolved L30"),
        // C#: a property's type types its receiver (`Backup.Save()`, `this.Backup?.Save()`).
        ("csharp", "E csharp/src/App/App.cs::App.Run -calls-> csharp/src/Store/MemoryStore.cs::MemoryStore.Save ast_resolved L17"),
        ("csharp", "E csharp/src/App/App.cs::App.Run -calls-> csharp/src/Store/MemoryStore.cs::MemoryStore.Save ast_resolved L18"),
        // C#: implicit `this` reaches inherited members; `IName` bases are implemented.
        ("csharp", "E csharp/src/Store/MemoryStore.cs::MemoryStore.Save -calls-> csharp/src/Store/BaseStore.cs::BaseStore.Log ast_resolved L14"),
        ("csharp", "E csharp/src/Store/MemoryStore.cs::MemoryStore -implements-> csharp/src/Store/IStore.cs::IStore ast_resolved L5"),
        ("csharp", "E csharp/src/Store/MemoryStore.cs::MemoryStore -extends-> csharp/src/Store/BaseStore.cs::BaseStore ast_resolved L5"),
        ("csharp", "E csharp/tests/MemoryStoreTests.cs::MemoryStoreTests.SavesItems -tests-> csharp/src/Store/MemoryStore.cs::MemoryStore.Save ast_resolved L15"),
        // Kotlin: imports (aliased too), same-package top-level functions, companion members
        // through the class name, extension functions on a constructed receiver, `val` params.
        ("kotlin", "E kotlin/src/main/kotlin/com/acme/app/App.kt::App.run -calls-> kotlin/src/main/kotlin/com/acme/store/Store.kt::Store.save ast_resolved L12"),
        ("kotlin", "E kotlin/src/main/kotlin/com/acme/app/App.kt::App.run -calls-> kotlin/src/main/kotlin/com/acme/app/Util.kt::twice ast_resolved L15"),
        ("kotlin", "E kotlin/src/main/kotlin/com/acme/app/App.kt::App.run -calls-> kotlin/src/main/kotlin/com/acme/store/Store.kt::MemoryStore.open ast_resolved L14"),
        ("kotlin", "E kotlin/src/main/kotlin/com/acme/app/App.kt::App.run -calls-> kotlin/src/main/kotlin/com/acme/store/Store.kt::Item.describe ast_inferred L17"),
        ("kotlin", "E kotlin/src/main/kotlin/com/acme/app/App.kt::App.run -calls-> kotlin/src/main/kotlin/com/acme/store/Store.kt::MemoryStore.validate ast_resolved L13"),
        ("kotlin", "E kotlin/src/main/kotlin/com/acme/store/Store.kt::MemoryStore.save -calls-> kotlin/src/main/kotlin/com/acme/store/Store.kt::BaseStore.log ast_resolved L18"),
        ("kotlin", "E kotlin/src/main/kotlin/com/acme/store/Store.kt::MemoryStore -implements-> kotlin/src/main/kotlin/com/acme/store/Store.kt::Store ast_resolved L13"),
        // PHP: `use` (grouped, aliased, `use function`), `$this->field->f()` through a promoted
        // constructor parameter, inherited and trait methods, `self::`, fully qualified names.
        ("php", "E php/src/Services/OrderService.php::OrderService.place -calls-> php/src/Support/Repo.php::Repo.save ast_resolved L22"),
        ("php", "E php/src/Services/OrderService.php::OrderService.place -calls-> php/src/Support/Repo.php::Clock.now ast_resolved L23"),
        ("php", "E php/src/Services/OrderService.php::OrderService.place -calls-> php/src/Services/BaseService.php::BaseService.audit ast_resolved L24"),
        ("php", "E php/src/Services/OrderService.php::OrderService.place -calls-> php/src/Services/BaseService.php::Loggable.log ast_resolved L25"),
        ("php", "E php/src/Services/OrderService.php::OrderService.place -calls-> php/src/Services/OrderService.php::OrderService.make ast_resolved L26"),
        ("php", "E php/src/Services/OrderService.php::OrderService.place -calls-> php/src/Models/Order.php::Order.touch ast_resolved L28"),
        ("php", "E php/src/Services/OrderService.php::OrderService.place -calls-> php/src/Support/Repo.php::helper ast_resolved L30"),
        ("php", "E php/src/Services/BaseService.php::Placer.place -typed_as-> php/src/Models/Order.php::Order ast_resolved L16"),
        // PHP: an unqualified call nothing in the repository declares is a global built-in.
        ("php", "E php/src/Support/Repo.php::helper -calls-> external::php.count ast_resolved L14"),
        // Ruby: require_relative, module-nested classes across files, inherited and mixed-in
        // methods called on implicit self, `Const.new` and `Shop::Util.twice`.
        ("ruby", "E ruby/lib/shop/order_service.rb -imports-> ruby/lib/shop/order.rb ast_resolved L3"),
        ("ruby", "E ruby/lib/shop/order_service.rb::Shop.OrderService.place -calls-> ruby/lib/shop/base_service.rb::Shop.BaseService.audit ast_resolved L12"),
        ("ruby", "E ruby/lib/shop/order_service.rb::Shop.OrderService.place -calls-> ruby/lib/shop/base_service.rb::Shop.Loggable.log ast_resolved L13"),
        ("ruby", "E ruby/lib/shop/order_service.rb::Shop.OrderService -extends-> ruby/lib/shop/base_service.rb::Shop.Loggable ast_resolved L8"),
        ("ruby", "E ruby/lib/shop/order_service.rb::Shop.OrderService.place -calls-> ruby/lib/shop/order.rb::Shop.Order.touch ast_resolved L16"),
        ("ruby", "E ruby/lib/shop/order_service.rb::Shop.OrderService.place -calls-> ruby/lib/shop/order_service.rb::Shop.Util.twice ast_resolved L18"),
        ("ruby", "E ruby/test/order_service_test.rb::OrderServiceTest.test_places -calls-> ruby/lib/shop/order_service.rb::Shop.OrderService.place ast_resolved L6"),
        // Kernel methods are external; a method of the repository with a Kernel name wins.
        ("ruby", "E ruby/lib/shop/report.rb::Shop.Report.show -calls-> external::ruby.Kernel.fail ast_resolved L5"),
        ("ruby", "E ruby/lib/shop/report.rb::Shop.Report.show -calls-> ruby/lib/shop/report.rb::Shop.Report.format ast_resolved L6"),
        // `require("shop.log")` from a `lua/` root; `function M.f()` joins the module table; `self:` calls.
        ("lua", "E lua/lua/shop/inventory.lua::M.add -calls-> lua/lua/shop/log.lua::M.info ast_resolved L7"),
        ("lua", "E lua/lua/shop/inventory.lua::M.clear -calls-> lua/lua/shop/inventory.lua::M.reset ast_resolved L16"),
        ("lua", "E lua/lua/shop/inventory.lua::M.add -calls-> external::lua.string.format ast_resolved L7"),
        // `source "$(dirname "$0")/…"` beside the script, `..` included; commands nothing declares are programs.
        ("bash", "E bash/bin/release -calls-> bash/lib/log.sh::log_info ast_resolved L3"),
        ("bash", "E bash/deploy.sh::deploy -calls-> bash/common.sh::notify ast_resolved L12"),
        ("bash", "E bash/deploy.sh::build -calls-> external::sh.docker ast_resolved L7"),
        ("bash", "E bash/common.sh::notify -calls-> bash/lib/log.sh::log_info text_matched L2"),
        // Scala: selector imports with renames, members through field and parameter types, inherited
        // members through an implicit `this`, typed locals from `new`.
        ("scala", "E scala/src/main/scala/shop/orders/OrderService.scala::OrderService.place -calls-> scala/src/main/scala/shop/mail/Mailer.scala::Mailer.send ast_resolved L16"),
        ("scala", "E scala/src/main/scala/shop/orders/OrderService.scala::OrderService.place -instantiates-> scala/src/main/scala/shop/mail/Mailer.scala::Receipt ast_resolved L16"),
        ("scala", "E scala/src/main/scala/shop/orders/OrderService.scala::OrderService.place -calls-> scala/src/main/scala/shop/orders/OrderService.scala::Service.audit ast_resolved L14"),
        ("scala", "E scala/src/test/scala/shop/orders/OrderServiceTest.scala::OrderServiceTest.testPlaces -calls-> scala/src/main/scala/shop/orders/OrderService.scala::OrderService.place ast_resolved L8"),
        // Generic tier: same-file names first (module members are the file's top level), then the one declaration.
        ("generic", "E generic/lib/shop/orders.ex::Shop.Orders.place -calls-> generic/lib/shop/orders.ex::Shop.Orders.validate ast_resolved L3"),
        ("generic", "E generic/lib/shop/orders.ex::Shop.Orders.place -calls-> generic/lib/shop/mailer.ex::Shop.Mailer.send_receipt text_matched L4"),
        // A manifest's dependency and the code importing it meet at one module node: a `.csproj`
        // package reference and a C# `using`, a Gemfile gem and a Ruby `require`.
        ("csharp", "E csharp/src/App/App.csproj -depends_on_module-> external::Newtonsoft.Json ast_resolved L3"),
        ("csharp", "E csharp/src/App/Dump.cs -imports-> external::Newtonsoft.Json ast_resolved L1"),
        ("ruby", "E ruby/Gemfile -depends_on_module-> external::json ast_resolved L3"),
        ("ruby", "E ruby/lib/shop/order_service.rb -imports-> external::json ast_resolved L1"),
        // Swift: a SwiftPM target is one module (no imports between its files); `import M` sees
        // another target; a field's type types its receiver; inherited methods without `self`;
        // an extension's members and conformances join the extended type; the class in a
        // supertype list is extended, protocols are implemented.
        ("swift", "E swift/Sources/Shop/Cart.swift::Cart.checkout -instantiates-> swift/Sources/Shop/Payments.swift::Payments ast_resolved L14"),
        ("swift", "E swift/Sources/Shop/Cart.swift::Cart.checkout -calls-> swift/Sources/Shop/Payments.swift::Payments.charge ast_resolved L15"),
        ("swift", "E swift/Sources/Shop/Cart.swift::Cart.checkout -calls-> swift/Sources/Storage/Repository.swift::Repository.save ast_resolved L16"),
        ("swift", "E swift/Sources/Shop/Cart.swift::Cart.checkout -calls-> swift/Sources/Storage/Repository.swift::Repository.flush ast_resolved L17"),
        ("swift", "E swift/Sources/Shop/Cart.swift::Cart.checkout -calls-> swift/Sources/Shop/Payments.swift::BaseCart.audit ast_resolved L18"),
        ("swift", "E swift/Sources/Shop/Cart.swift::Cart.checkout -calls-> swift/Sources/Shop/Payments.swift::log ast_resolved L19"),
        ("swift", "E swift/Sources/Shop/Cart.swift::Cart.checkout -calls-> external::swift.print ast_resolved L20"),
        ("swift", "E swift/Sources/Shop/Cart.swift::Cart.checkout -instantiates-> swift/Sources/Storage/Repository.swift::Receipt ast_resolved L21"),
        ("swift", "E swift/Sources/Shop/Cart.swift::Cart -extends-> swift/Sources/Shop/Payments.swift::BaseCart ast_resolved L5"),
        ("swift", "E swift/Sources/Shop/Cart.swift::Cart -implements-> swift/Sources/Shop/Payments.swift::Checkout ast_resolved L5"),
        ("swift", "E swift/Sources/Shop/Cart.swift::Cart -implements-> swift/Sources/Shop/Payments.swift::Describable ast_resolved L10"),
        ("swift", "E swift/Tests/ShopTests/CartTests.swift::CartTests.testCheckout -calls-> swift/Sources/Shop/Cart+Describe.swift::Cart.clear ast_resolved L9"),
        ("swift", "E swift/Tests/ShopTests/CartTests.swift::CartTests.testCheckout -tests-> swift/Sources/Shop/Cart.swift::Cart.checkout ast_resolved L8"),
        ("swift", "E swift/Tests/ShopTests/CartTests.swift::CartTests.testCheckout -calls-> external::XCTest.XCTAssertEqual ast_resolved L10"),
        // Outside a `Package.swift`, `Sources/` is a folder: an Xcode app's Views and Models are one
        // module; an unannotated property is typed by the type its initialiser constructs.
        ("swift", "E swift/App/Sources/Views/Home.swift::Home -instantiates-> swift/App/Sources/Models/Store.swift::Store ast_resolved L2"),
        ("swift", "E swift/App/Sources/Views/Home.swift::Home.render -calls-> swift/App/Sources/Models/Store.swift::Store.load ast_resolved L5"),
        // Foundation's names are external only where Foundation (or a framework re-exporting it) is imported.
        ("swift", "E swift/Sources/Shop/Cart.swift::Cart.link -calls-> external::Foundation.URL ast_resolved L26"),
        ("swift", "U swift/Sources/Storage/Repository.swift::stamp -calls-> unresolved::Date L24 c0"),
        // A Vue template renders an imported Svelte component; `import App from './App.vue'` binds the component.
        ("polyglot", "E polyglot/web/src/App.vue::App -instantiates-> polyglot/web/src/components/CounterBadge.svelte::CounterBadge ast_resolved L4"),
        ("polyglot", "E polyglot/web/src/main.ts -imports-> polyglot/web/src/App.vue::App ast_resolved L2"),
        ("polyglot", "E polyglot/web/src/components/UserCard.vue::loadName -calls-> polyglot/web/src/api.ts::fetchUser ast_resolved L10"),
        // Options API: methods, computed entries, hooks and `name: function` entries are methods of
        // the component, props its fields, so `this.` resolves among them.
        ("polyglot", "E polyglot/web/src/components/LegacyButton.vue::LegacyButton.mounted -calls-> polyglot/web/src/components/LegacyButton.vue::LegacyButton.load ast_resolved L33"),
        ("polyglot", "E polyglot/web/src/components/LegacyButton.vue::LegacyButton.label -calls-> polyglot/web/src/components/LegacyButton.vue::LegacyButton.format ast_resolved L16"),
        ("polyglot", "E polyglot/web/src/components/LegacyButton.vue::LegacyButton.load -references-> polyglot/web/src/components/LegacyButton.vue::LegacyButton.userId ast_resolved L26"),
        // Vue `mixins: [A, B]` and `extends: C` are supertypes: `this.` finds a mixin's method (a
        // `.js` module exporting options, a `.ts` one through `defineComponent`) and the base
        // component's; inside the mixin, a bare name is the module's function, not the method.
        ("polyglot", "E polyglot/web/src/components/ToggleLink.vue::ToggleLink -extends-> polyglot/web/src/mixins/emitter.js::Emitter ast_resolved L12"),
        ("polyglot", "E polyglot/web/src/components/ToggleLink.vue::ToggleLink.toggle -calls-> polyglot/web/src/mixins/focusable.ts::Focusable.focus ast_resolved L16"),
        ("polyglot", "E polyglot/web/src/components/ToggleLink.vue::ToggleLink.toggle -calls-> polyglot/web/src/mixins/emitter.js::Emitter.dispatch ast_resolved L17"),
        ("polyglot", "E polyglot/web/src/components/ToggleLink.vue::ToggleLink.toggle -references-> polyglot/web/src/mixins/focusable.ts::Focusable.focused ast_resolved L17"),
        ("polyglot", "E polyglot/web/src/components/ToggleLink.vue::ToggleLink.toggle -calls-> polyglot/web/src/components/LegacyButton.vue::LegacyButton.load ast_resolved L18"),
        ("polyglot", "E polyglot/web/src/mixins/emitter.js::Emitter.broadcast -calls-> polyglot/web/src/mixins/emitter.js::broadcast ast_resolved L11"),
        ("polyglot", "E polyglot/web/src/mixins/emitter.js::Emitter.dispatch -calls-> external::vue.$emit ast_resolved L8"),
        // `this.$emit` is Vue's instance API.
        ("polyglot", "E polyglot/web/src/components/LegacyButton.vue::LegacyButton.handleClick -calls-> external::vue.$emit ast_resolved L22"),
        // The manifest and the code importing a package meet at one module node.
        ("polyglot", "E polyglot/web/package.json -depends_on_module-> external::axios ast_resolved L4"),
        ("polyglot", "E polyglot/web/src/api.ts -imports-> external::axios ast_resolved L1"),
        // Proto imports resolve from an unconfigured proto root; field and RPC types bind across files.
        ("polyglot", "E polyglot/proto/shop/v1/order.proto::Order.total -typed_as-> polyglot/proto/shop/v1/money.proto::Money ast_resolved L8"),
        ("polyglot", "E polyglot/proto/shop/v1/order.proto::Orders.GetOrder -returns-> polyglot/proto/shop/v1/order.proto::Order ast_resolved L14"),
        ("polyglot", "E polyglot/db/schema.sql::orders.user_id -references-> polyglot/db/schema.sql::users ast_resolved L8"),
        ("polyglot", "E polyglot/Dockerfile::stage-1 -references-> polyglot/Dockerfile::web ast_resolved L7"),
    ];
    let mut cache = std::collections::HashMap::new();
    for (lang, fact) in facts {
        let lines = cache.entry(*lang).or_insert_with(|| {
            let (index, _) = index(&fixtures().join("resolver").join(lang), &opts);
            resolution_lines(&index)
        });
        assert!(
            lines.iter().any(|l| l == fact),
            "missing fact in {lang}: {fact}\nhave:\n{}",
            lines.join("\n")
        );
    }
    // Precision: a std type's `String::new()` must not bind to the repo's only `new`.
    let rust = cache.get("rust").unwrap();
    assert!(
        !rust
            .iter()
            .any(|l| l.contains("Store.name -calls-> rust/src/store.rs::Store.new")),
        "String::new bound by name"
    );
}
