#if compiler(>=6.2)
/// `SendableMetatype` from Swift 6.2 (`Any` before), under GRDB's name.
///
/// A record's type is used across isolation domains: a request made on one thread is
/// fetched on the writer's queue, and the types of aggregates are kept by `Sendable`
/// database functions. So ``TableRecord``, ``EncodableRecord`` and ``DatabaseAggregate``
/// refine it (as GRDB's do): `any TableRecord.Type` is `Sendable`, and a conformance to
/// them can not be isolated to an actor.
public typealias GRDBSendableMetatype = SendableMetatype
#else
/// `SendableMetatype` from Swift 6.2 (`Any` before, when metatypes were all `Sendable`).
public typealias GRDBSendableMetatype = Any
#endif
