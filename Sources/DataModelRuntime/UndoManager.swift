import Foundation

/// Foundation's `UndoManager`, which Foundation on Linux does not have: the same surface for a
/// ``ManagedObjectContext/undoManager``, or for any other undo stack of the application.
///
/// ```swift
/// context.undoManager = UndoManager()
/// employee.name = "Ada"
/// context.undo()          // name back to what it was
/// context.redo()          // "Ada" again
/// ```
///
/// Actions are kept in groups; ``undo()`` reverts the last group as a whole. With ``groupsByEvent``
/// (the default) a group opens at the first registration and lasts until the application ends the
/// event: there is no event loop to do it here, so the group closes at ``ManagedObjectContext/processPendingChanges()``,
/// at ``undo()``, ``redo()``, or a context's `save()`. ``beginUndoGrouping()`` / ``endUndoGrouping()``
/// make explicit groups (nested groups become part of the outermost one).
///
/// Like Foundation's, it does not retain the targets of its actions: an action whose target is gone does
/// nothing. An undo manager belongs to its context's isolation domain.
public final class UndoManager {
    private struct Action {
        weak var target: AnyObject?
        let run: (AnyObject) -> Void
    }

    private struct Group {
        var actions: [Action] = []
        var name = ""
        /// Opened by ``groupsByEvent`` rather than ``beginUndoGrouping()``.
        var isEventGroup = false
    }

    private var undoStack: [Group] = []
    private var redoStack: [Group] = []
    /// The open groups, outermost first.
    private var openGroups: [Group] = []
    private var disabledCount = 0
    /// Increases each time an outermost group opens: what a context compares to know whether its record of
    /// changes still belongs to the open group.
    private(set) var groupToken = 0

    /// Whether a group opens by itself at the first registration outside any group (`true`).
    public var groupsByEvent = true
    /// How many groups ``undo()`` can revert; 0 (the default) for no limit.
    public var levelsOfUndo = 0 {
        didSet { trim() }
    }
    /// Whether ``undo()`` is running its actions (registrations then go to the redo stack).
    public private(set) var isUndoing = false
    /// Whether ``redo()`` is running its actions.
    public private(set) var isRedoing = false

    /// An empty undo manager.
    public init() {}

    /// How many groups are open.
    public var groupingLevel: Int { openGroups.count }

    /// Whether registrations are recorded (see ``disableUndoRegistration()``).
    public var isUndoRegistrationEnabled: Bool { disabledCount == 0 }

    /// Whether there is something to undo (a closed group, or an open one with actions).
    public var canUndo: Bool {
        !undoStack.isEmpty || openGroups.contains { !$0.actions.isEmpty }
    }

    /// Whether there is something to redo.
    public var canRedo: Bool { !redoStack.isEmpty }

    /// The name of the group ``undo()`` would revert.
    public var undoActionName: String { openGroups.first?.name ?? undoStack.last?.name ?? "" }

    /// The name of the group ``redo()`` would replay.
    public var redoActionName: String { redoStack.last?.name ?? "" }

    /// Names the open group (or the last closed one), for a menu item ("Undo Rename").
    public func setActionName(_ name: String) {
        if !openGroups.isEmpty {
            openGroups[0].name = name
        } else if !undoStack.isEmpty {
            undoStack[undoStack.count - 1].name = name
        }
    }

    /// Opens a group: the actions registered until the matching ``endUndoGrouping()`` are undone together.
    public func beginUndoGrouping() {
        if openGroups.isEmpty { groupToken += 1 }
        openGroups.append(Group())
    }

    /// Closes the group ``beginUndoGrouping()`` opened; the outermost one becomes one step of ``undo()``.
    public func endUndoGrouping() {
        guard let group = openGroups.popLast() else {
            preconditionFailure("endUndoGrouping() without beginUndoGrouping()")
        }
        if openGroups.isEmpty {
            push(group)
        } else {
            openGroups[openGroups.count - 1].actions += group.actions
        }
    }

    /// Closes the group ``groupsByEvent`` opened, if it is the only one open: the end of an event.
    func endEventGroup() {
        if openGroups.count == 1 && openGroups[0].isEventGroup { endUndoGrouping() }
    }

    /// Records `handler` as the way to undo a change of `target`: ``undo()`` calls it with `target`.
    public func registerUndo<Target: AnyObject>(withTarget target: Target, handler: @escaping (Target) -> Void) {
        guard isUndoRegistrationEnabled else { return }
        let action = Action(target: target) { object in
            // safe: the action is only ever called with the target it was registered with.
            if let typed = object as? Target { handler(typed) }
        }
        if openGroups.isEmpty {
            beginUndoGrouping()
            openGroups[0].isEventGroup = true
            if !groupsByEvent {
                // Foundation requires a group here; a lone registration becomes a group of its own.
                openGroups[0].actions.append(action)
                endUndoGrouping()
                return
            }
        }
        openGroups[openGroups.count - 1].actions.append(action)
    }

    /// Reverts the last group (closing an event group still open first); its actions' own registrations
    /// become a group of ``redo()``.
    public func undo() {
        endEventGroup()
        precondition(openGroups.isEmpty, "undo() inside an open undo group: call endUndoGrouping() first")
        guard let group = undoStack.popLast() else { return }
        isUndoing = true
        defer { isUndoing = false }
        run(group)
    }

    /// Replays the last group ``undo()`` reverted.
    public func redo() {
        endEventGroup()
        precondition(openGroups.isEmpty, "redo() inside an open undo group: call endUndoGrouping() first")
        guard let group = redoStack.popLast() else { return }
        isRedoing = true
        defer { isRedoing = false }
        run(group)
    }

    /// Forgets every group, open or closed.
    public func removeAllActions() {
        undoStack.removeAll()
        redoStack.removeAll()
        openGroups.removeAll()
    }

    /// Forgets the actions registered with `target`.
    public func removeAllActions(withTarget target: AnyObject) {
        func keep(_ group: inout Group) { group.actions.removeAll { $0.target === target || $0.target == nil } }
        for index in undoStack.indices { keep(&undoStack[index]) }
        for index in redoStack.indices { keep(&redoStack[index]) }
        for index in openGroups.indices { keep(&openGroups[index]) }
        undoStack.removeAll { $0.actions.isEmpty }
        redoStack.removeAll { $0.actions.isEmpty }
    }

    /// Stops recording registrations until the matching ``enableUndoRegistration()``.
    public func disableUndoRegistration() {
        disabledCount += 1
    }

    /// Records registrations again.
    public func enableUndoRegistration() {
        disabledCount = max(disabledCount - 1, 0)
    }

    /// Runs a group's actions, last first, collecting what they register as one group of the other stack.
    private func run(_ group: Group) {
        let savedGroups = openGroups
        openGroups = [Group(name: group.name)]
        groupToken += 1
        for action in group.actions.reversed() {
            if let target = action.target { action.run(target) }
        }
        let inverse = openGroups[0]
        openGroups = savedGroups
        groupToken += 1
        guard !inverse.actions.isEmpty else { return }
        if isUndoing {
            redoStack.append(inverse)
        } else {
            undoStack.append(inverse)
            trim()
        }
    }

    private func push(_ group: Group) {
        guard !group.actions.isEmpty else { return }
        undoStack.append(group)
        if !isUndoing && !isRedoing { redoStack.removeAll() }
        trim()
    }

    private func trim() {
        if levelsOfUndo > 0 && undoStack.count > levelsOfUndo { undoStack.removeFirst(undoStack.count - levelsOfUndo) }
    }
}

@available(*, unavailable, message: "An UndoManager belongs to its context's isolation domain.")
extension UndoManager: Sendable {}
