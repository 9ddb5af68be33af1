import Multicast

struct ValidationError: Error {
    let field: String
}

protocol FormValidator: AnyObject {
    func validate(_ name: String) throws(ValidationError)
}

func validate(_ name: String, with validators: MulticastDelegate<any FormValidator>) throws(ValidationError) {
    try validators.call { validator throws(ValidationError) in
        try validator.validate(name)  // the call throws a ValidationError, not `any Error`
    }
}
