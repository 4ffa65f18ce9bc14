import Testing
@testable import SessionModel
