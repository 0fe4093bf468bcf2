import Foundation

/// The `rx` namespace of a value: extensions on `Reactive` where `Base` is a type add its
/// reactive API (`object.rx.someBinding`). Every writable property of a class is a
/// `Binder` through dynamic member lookup (`object.rx.title`).
@dynamicMemberLookup
public struct Reactive<Base> {
    /// The value the namespace is of.
    public let base: Base

    /// The namespace of `base`.
    public init(_ base: Base) {
        self.base = base
    }

    /// A binder that sets the property at `keyPath` of the base object (on the main scheduler).
    public subscript<Property>(dynamicMember keyPath: ReferenceWritableKeyPath<Base, Property>) -> Binder<Property> where Base: AnyObject {
        Binder(base) { base, value in base[keyPath: keyPath] = value }
    }
}

/// A type with an `rx` namespace.
public protocol ReactiveCompatible {
    /// The type the namespace extends.
    associatedtype ReactiveBase

    /// The namespace of the type.
    static var rx: Reactive<ReactiveBase>.Type { get set }

    /// The namespace of the value.
    var rx: Reactive<ReactiveBase> { get set }
}

extension ReactiveCompatible {
    public static var rx: Reactive<Self>.Type {
        get { Reactive<Self>.self }
        // A setter, so that `mutating` extensions on `Reactive` can be used through `rx`.
        set {}
    }

    public var rx: Reactive<Self> {
        get { Reactive(self) }
        set {}
    }
}

extension NSObject: ReactiveCompatible {}
